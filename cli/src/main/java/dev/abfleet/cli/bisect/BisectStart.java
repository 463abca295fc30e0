package dev.abfleet.cli.bisect;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.stats.DesignCheck;
import dev.abfleet.config.PolicyRanges;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.BisectKernel;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.StartBisectRequest;
import dev.abfleet.proto.fleet.v1.VmShape;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.KernelImage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A bisect to start, checked here before anything is uploaded: the kernels, the metric of the
 * benchmark, the policy. {@link #request} uploads the kernels and guest images and makes the
 * StartBisect request.
 */
final class BisectStart {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final FleetConfig config;
  private final FleetConfig.Benchmark benchmark;
  private final String metric;
  private final String hypervisor;
  private final double threshold;
  private final double alpha;
  private final List<Integer> looks;
  /** f of the probe rule, in (0, 1); 0 = the controller's default (0.5). */
  private final double fraction;
  private final List<Path> kernels = new ArrayList<>();
  private final List<String> sha256 = new ArrayList<>();

  /** @throws Problem naming the bad flag or kernel and the fix */
  BisectStart(FleetConfig config, String benchmarkName, String metric, String hypervisor, Double threshold,
      Double alpha, List<Integer> looks, Double fraction, List<Path> kernels) {
    this.config = config;
    this.benchmark = config.benchmark(benchmarkName);
    if (metric == null) {
      throw new Problem("--metric: missing; name the metric that regressed, e.g. --metric seq_read");
    }
    if (kernels.size() < 2) {
      throw new Problem(kernels.size() + " KERNEL given: pass at least 2, oldest (good) first, newest"
          + " (regressed) last; or --attach ID, --cancel ID, --list");
    }
    if (!benchmark.metrics().contains(metric)) {
      throw new Problem("--metric " + metric + ": benchmark " + benchmark.name() + " measures "
          + String.join(", ", benchmark.metrics()));
    }
    if (!List.of("qemu", "vz", "sim").contains(hypervisor)) {
      throw new Problem("--hypervisor " + hypervisor + ": expected qemu, vz or sim");
    }
    this.metric = metric;
    this.hypervisor = hypervisor;
    this.threshold = threshold != null ? PolicyRanges.threshold(threshold) : config.policy().noiseThreshold();
    this.alpha = alpha != null ? PolicyRanges.alpha(alpha) : config.policy().alpha();
    for (int i = 0; i < looks.size(); i++) {
      if (looks.get(i) < 2 || (i > 0 && looks.get(i) <= looks.get(i - 1)) || looks.get(i) > 10_000) {
        throw new Problem("--looks " + looks + ": expected ascending pair counts from 2 to 10000, e.g. 10,15,20");
      }
    }
    this.looks = List.copyOf(looks);
    if (fraction != null && !(fraction > 0 && fraction < 1)) {
      throw new Problem("--fraction " + fraction + ": expected a number in (0, 1), e.g. 0.5 (a good probe's"
          + " interval rules out half the regression measured between the endpoints)");
    }
    this.fraction = fraction == null ? 0 : fraction;
    for (Path k : kernels) {
      check(k);
    }
  }

  /**
   * The design check of every probe (the metric alone gates, one candidate: {@link DesignCheck}): refused (exit
   * 2) when no probe could be judged, its warnings printed to {@code err} once, before the first build or boot.
   *
   * @param pairs a fixed design of this many pairs, or null for {@code looks}
   */
  public static void checkDesign(FleetConfig config, Integer pairs, List<Integer> looks, Double alpha,
      java.io.PrintStream err) {
    FleetConfig.Policy p = config.policy();
    DesignCheck.Result r = DesignCheck.check(new DesignCheck.Design(pairs != null ? List.of(pairs) : looks,
        alpha != null ? alpha : p.alpha(), 1, 1, false, p.futilityEffect(), p.futilityBeta(), pairs == null));
    if (r.outcome() == DesignCheck.Outcome.REFUSE) {
      throw new Problem(r.refusal("--pairs", "--looks"));
    }
    r.warnings().forEach(w -> err.println("abfleet: design: " + w));
  }

  private void check(Path k) {
    (simulation() ? dev.abfleet.worker.sim.SimArtifacts.checkKernel(k) : KernelImage.check(k)).ifPresent(p -> {
      throw new Problem(k + ": " + p);
    });
    try {
      sha256.add(ArtifactCache.sha256(k));
      kernels.add(k.toAbsolutePath().normalize());
    } catch (IOException e) {
      throw new Problem("cannot read " + k + " (" + e.getMessage() + ")");
    }
  }

  boolean simulation() {
    return hypervisor.equals("sim");
  }

  /** A bisect id of the controller's form, b-XXXXXXXX, chosen here so that a retried start is one bisect. */
  static String newId() {
    byte[] bytes = new byte[4];
    RANDOM.nextBytes(bytes);
    return "b-" + HexFormat.of().formatHex(bytes);
  }

  /**
   * Prepares the guest images and uploads every kernel (as one spec with an arm per kernel, the
   * way experiments send theirs), then makes the request: the uploaded kernels with their paths
   * as labels, and the first arm without its kernel as the probes' template.
   */
  StartBisectRequest request(ExperimentClient experiments, String id, PrintStream err) {
    Policy.Builder policy = Policy.newBuilder().setBootTimeoutS(config.policy().bootTimeoutS());
    if (config.policy().hostQuiet() != null) {
      policy.setHostQuiet(config.policy().hostQuiet().toProto());
    }
    ExperimentSpec.Builder all = ExperimentSpec.newBuilder().setName("bisect")
        .setBenchmark(benchmark.toProto(List.of(metric), benchmark.iterations()))
        .setSelector(HostSelector.newBuilder().setHypervisor(hypervisor))
        .setPolicy(policy)
        .setPriority("adhoc");
    for (int i = 0; i < kernels.size(); i++) {
      all.addArms(arm("k" + i, i == 0 ? "baseline" : "candidate", i));
    }
    ExperimentSpec uploaded = experiments.prepareUploading(all.build(), err);
    StartBisectRequest.Builder r = StartBisectRequest.newBuilder().setBisectId(id).setMetric(metric)
        .setNoiseThreshold(threshold).setAlpha(alpha).addAllLooks(looks).setFraction(fraction)
        .setTemplate(uploaded.toBuilder().clearArms().addArms(uploaded.getArms(0).toBuilder().setBoot(uploaded.getArms(0).getBoot().toBuilder().clearKernel())));
    for (int i = 0; i < kernels.size(); i++) {
      r.addKernels(BisectKernel.newBuilder().setKernel(uploaded.getArms(i).getBoot().getKernel())
          .setLabel(kernels.get(i).toString()));
    }
    return r.build();
  }

  private Arm arm(String name, String role, int index) {
    Path k = kernels.get(index);
    return Arm.newBuilder().setName(name).setRole(role)
        .setBoot(BootSpec.newBuilder()
            .setKernel(Artifact.newBuilder().setSha256(sha256.get(index)).setUri(k.toString())
                .setSizeBytes(k.toFile().length()))
            .setShape(VmShape.newBuilder().setVcpus(config.vm().vcpus()).setMemoryMib(config.vm().memoryMib())))
        .build();
  }
}
