package dev.abfleet.cli.bisect;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.Problem;
import dev.abfleet.cli.config.FleetConfig;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.VmShape;
import dev.abfleet.stats.VerdictEngine;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Pairs from the controller: each call is one experiment of the good and the probed artifact
 * (priority "adhoc"); the verdict is computed here over the pairs of all looks together, so the
 * controller's own per-experiment verdict is not used.
 */
final class GrpcPairSource implements PairSource {
  private final ExperimentClient client;
  private final List<Path> kernels;
  private final List<String> sha256;
  private final FleetConfig config;
  private final FleetConfig.Benchmark benchmark;
  private final String metric;
  private final String hypervisor;
  private final PrintStream err;

  GrpcPairSource(ExperimentClient client, List<Path> kernels, List<String> sha256, FleetConfig config,
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
  public Batch run(int good, int candidate, int pairs) {
    String goodArm = "good-" + good;
    String probeArm = "probe-" + candidate;
    ExperimentSpec spec = ExperimentSpec.newBuilder()
        .setName("bisect-" + good + "-vs-" + candidate)
        .addArms(arm(goodArm, "baseline", good))
        .addArms(arm(probeArm, "candidate", candidate))
        .setBenchmark(Benchmark.newBuilder().setHarness(benchmark.harness()).addMetrics(metric)
            .setIterations(benchmark.iterations()).setIterationMs(benchmark.iterationMs())
            .setWarmupIterations(benchmark.warmup()))
        .setSelector(HostSelector.newBuilder().setHypervisor(hypervisor))
        .setPolicy(Policy.newBuilder().setNoiseThreshold(config.policy().noiseThreshold())
            .setAlpha(config.policy().alpha()).setPairs(pairs).setBootTimeoutS(config.policy().bootTimeoutS())
            .addGatingMetrics(metric))
        .setPriority("adhoc")
        .build();
    String id = client.submit("", spec);
    err.println("abfleet: bisect: experiment " + id + ": " + pairs + " pairs of #" + good + " vs #" + candidate);
    Experiment done = client.watch(id, e -> { });
    if (!done.getState().equals("completed")) {
      throw new Problem("experiment " + id + " " + done.getState() + ": " + done.getMessage()
          + "; the bisect stops here (probes so far are above)");
    }
    return batch(done, goodArm, probeArm, metric);
  }

  /** Per-pair values of the metric: median of each boot's measured iterations; NaN for a failed boot. */
  static Batch batch(Experiment e, String goodArm, String probeArm, String metric) {
    int n = (int) e.getPairsDone();
    int max = e.getBootsList().stream().mapToInt(b -> (int) b.getPairIndex() + 1).max().orElse(0);
    n = Math.max(n, max);
    double[] a = new double[n];
    double[] b = new double[n];
    Arrays.fill(a, Double.NaN);
    Arrays.fill(b, Double.NaN);
    String[] hosts = new String[n];
    Arrays.fill(hosts, "");
    boolean[] goodFirst = new boolean[n];
    String unit = "";
    String better = "higher";
    for (Boot boot : e.getBootsList()) {
      int i = (int) boot.getPairIndex();
      double v = value(boot, metric);
      hosts[i] = boot.getHostId();
      if (boot.getArm().equals(goodArm)) {
        a[i] = v;
        goodFirst[i] = boot.getOrderInPair() == 0;
      } else if (boot.getArm().equals(probeArm)) {
        b[i] = v;
      }
      for (MetricSample s : boot.getSamplesList()) {
        if (s.getMetric().equals(metric) && unit.isEmpty()) {
          unit = s.getUnit();
          better = s.getBetter().isEmpty() ? "higher" : s.getBetter();
        }
      }
    }
    return new Batch(a, b, unit, better, hosts, goodFirst);
  }

  private static double value(Boot boot, String metric) {
    if (!boot.getStatus().equals("ok")) {
      return Double.NaN;
    }
    return VerdictEngine.median(boot.getSamplesList().stream()
        .filter(s -> s.getMetric().equals(metric) && !s.getWarmup())
        .mapToDouble(MetricSample::getValue).toArray());
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
