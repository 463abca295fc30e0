package dev.abfleet.controller.report;

import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.plan.BootTimeouts;
import dev.abfleet.controller.plan.WorkloadSpec;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.BootTimeout;
import java.util.List;

/**
 * The boot timeouts of an experiment as the controller sent it, by the rule the controller
 * plans with ({@link BootTimeouts}) over the same boots: its measured boots that ended OK.
 */
final class BootTimeoutFacts {
  private BootTimeoutFacts() {}

  static BootTimeout of(Experiment e) {
    BenchmarkSpec benchmark = benchmark(e.getSpec().getBenchmark());
    int fixedS = e.getSpec().getPolicy().getBootTimeoutS();
    List<BootTimeout.Arm> arms = e.getSpec().getArmsList().stream().map(a -> {
      BootTimeouts.Limit limit = BootTimeouts.limit(fixedS, benchmark, a.getBoot().getShape().getVcpus(),
          completedRunMs(e, a));
      return new BootTimeout.Arm(a.getName(), limit.seconds(), limit.why());
    }).toList();
    return new BootTimeout(fixedS == 0, arms);
  }

  private static List<Long> completedRunMs(Experiment e, Arm arm) {
    return e.getBootsList().stream()
        .filter(b -> b.getArm().equals(arm.getName()) && !b.getWarmup() && !b.getRerun() && b.getStatus().equals("ok"))
        .map(Boot::getTelemetry).map(t -> t.getRunMs()).toList();
  }

  /** What the rule reads of the benchmark: its size, not its artifacts. */
  private static BenchmarkSpec benchmark(Benchmark b) {
    return new BenchmarkSpec(b.getHarness(), b.getMetricsList(), b.getIterations(), b.getIterationMs(),
        b.getWarmupIterations(), b.getVolume(), b.getFiles(), b.getCache(),
        b.hasWorkload() ? new WorkloadSpec(null, b.getWorkload().getRun(), b.getWorkload().getOutput(),
            b.getWorkload().getTimeoutS()) : null,
        new BenchmarkSpec.Load(b.getThreads(), b.getSeqSizeMib(), b.getFileSize()));
  }
}
