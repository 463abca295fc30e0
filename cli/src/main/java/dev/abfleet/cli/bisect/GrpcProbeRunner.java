package dev.abfleet.cli.bisect;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.config.Problem;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.VmShape;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Probes at the controller: each call submits one experiment of the good and the probed artifact
 * (priority "adhoc") whose policy carries the bisect's looks, so the controller stops it at the
 * first look where the metric is decided; the controller's verdict on the metric is the probe's.
 */
final class GrpcProbeRunner implements ProbeRunner {
  private final ExperimentClient client;
  private final List<Path> kernels;
  private final List<String> sha256;
  private final FleetConfig config;
  private final FleetConfig.Benchmark benchmark;
  private final String metric;
  private final String hypervisor;
  private final PrintStream err;

  GrpcProbeRunner(ExperimentClient client, List<Path> kernels, List<String> sha256, FleetConfig config,
      FleetConfig.Benchmark benchmark, String metric, String hypervisor, PrintStream err) {
    this.client = client;
    this.kernels = kernels;
    this.sha256 = sha256;
    this.config = config;
    this.benchmark = benchmark;
    this.metric = metric;
    this.hypervisor = hypervisor;
    this.err = err;
  }

  @Override
  public Finished run(int good, int candidate, dev.abfleet.stats.Policy policy) {
    String probeArm = "probe-" + candidate;
    ExperimentSpec spec = spec(good, candidate, policy);
    String id = client.submitUploading("", spec, err);
    err.println("abfleet: bisect: experiment " + id + ": #" + good + " vs #" + candidate + ", looks at "
        + policy.looks() + " pairs" + (hypervisor.equals("sim") ? " (SIMULATION)" : ""));
    Experiment done = client.watch(id, e -> { });
    if (!done.getState().equals("completed")) {
      throw new Problem("experiment " + id + " " + done.getState() + ": " + done.getMessage()
          + "; the bisect stops here (probes so far are above)");
    }
    return finished(done, probeArm, metric);
  }

  ExperimentSpec spec(int good, int candidate, dev.abfleet.stats.Policy policy) {
    List<Integer> looks = policy.looks();
    return ExperimentSpec.newBuilder()
        .setName("bisect-" + good + "-vs-" + candidate)
        .addArms(arm("good-" + good, "baseline", good))
        .addArms(arm("probe-" + candidate, "candidate", candidate))
        .setBenchmark(benchmark.toProto(List.of(metric), benchmark.iterations()))
        .setSelector(HostSelector.newBuilder().setHypervisor(hypervisor))
        .setPolicy(Policy.newBuilder().setNoiseThreshold(policy.noiseThreshold()).setAlpha(policy.alpha())
            .addAllLooks(looks).setPairs(looks.get(looks.size() - 1))
            .setBootTimeoutS(config.policy().bootTimeoutS()).addGatingMetrics(metric))
        .setPriority("adhoc")
        .build();
  }

  /** The probe arm's comparison on the metric; an experiment without one is inconclusive. */
  static Finished finished(Experiment e, String probeArm, String metric) {
    Comparison c = e.getComparisonsList().stream()
        .filter(x -> x.getArm().equals(probeArm) && x.getMetric().equals(metric))
        .findFirst().orElse(null);
    int pairs = (int) e.getPairsDone();
    int boots = e.getBootsCount();
    if (c == null) {
      return new Finished(e.getExperimentId(), pairs, boots, "inconclusive", "higher", Double.NaN, Double.NaN,
          Double.NaN, List.of("the experiment reported no comparison of " + metric));
    }
    return new Finished(e.getExperimentId(), pairs, boots, c.getVerdict(),
        c.getBetter().isEmpty() ? "higher" : c.getBetter(), c.getChange(), c.getCiLow(), c.getCiHigh(),
        c.getReasonsList());
  }

  private Arm arm(String name, String role, int index) {
    Path k = kernels.get(index);
    return Arm.newBuilder().setName(name).setRole(role)
        .setKernel(Artifact.newBuilder().setSha256(sha256.get(index)).setUri(k.toString())
            .setSizeBytes(k.toFile().length()))
        .setShape(VmShape.newBuilder().setVcpus(config.vm().vcpus()).setMemoryMib(config.vm().memoryMib()))
        .build();
  }
}
