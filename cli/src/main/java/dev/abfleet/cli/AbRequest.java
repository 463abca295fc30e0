package dev.abfleet.cli;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.config.PolicyRanges;

import dev.abfleet.config.Problem;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.stats.DesignCheck;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.VmShape;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.model.WorkloadMetrics;
import dev.abfleet.model.Harnesses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A validated {@code abfleet ab} request. Everything a user can get wrong is checked here,
 * before anything starts or is recorded.
 */
record AbRequest(
    List<AbArm> arms,
    FleetConfig config,
    String benchmarkName,
    List<String> metrics,
    Integer pairs,
    List<Integer> looks,
    Double threshold,
    Double alpha,
    Long seed,
    Integer iterations,
    Integer bootTimeoutS,
    Boolean warmupBoot,
    AbHosts hosts) {

  AbRequest {
    arms = List.copyOf(arms);
    java.util.Set<String> names = new java.util.HashSet<>();
    for (AbArm arm : arms) {
      if (!names.add(arm.name())) {
        throw new Problem("two arms are named '" + arm.name() + "'; give the arms different names");
      }
    }
    for (AbArm arm : arms) {
      checkKernel(arm, hosts.simulated());
    }
    FleetConfig.Benchmark b = config.benchmark(benchmarkName);
    if (metrics != null) {
      checkMetrics(b, metrics);
    }
    if (iterations != null && b.workload() != null) {
      throw new Problem("--iterations: benchmark " + b.name() + " runs a workload, whose command runs once per boot;"
          + " drop --iterations");
    }
    if (pairs != null && (pairs < 1 || pairs > 10_000)) {
      throw new Problem("--pairs " + pairs + ": expected 1 to 10000");
    }
    if (looks != null) {
      for (int i = 0; i < looks.size(); i++) {
        if (looks.get(i) < 2 || looks.get(i) > 10_000 || (i > 0 && looks.get(i) <= looks.get(i - 1))) {
          throw new Problem("--looks " + looks + ": expected ascending pair counts from 2 to 10000, e.g. 8,16,24");
        }
      }
      if (pairs != null) {
        throw new Problem("--pairs and --looks both given; the last look is the most pairs run, drop --pairs");
      }
    }
    if (threshold != null) {
      PolicyRanges.threshold(threshold);
    }
    if (alpha != null) {
      PolicyRanges.alpha(alpha);
    }
    if (iterations != null && (iterations < 1 || iterations > 1000)) {
      throw new Problem("--iterations " + iterations + ": expected 1 to 1000");
    }
    if (bootTimeoutS != null && (bootTimeoutS < 5 || bootTimeoutS > 86_400)) {
      throw new Problem("--boot-timeout " + bootTimeoutS + ": expected 5 to 86400 seconds");
    }
    refuseUndecidable(aa(arms) ? null : design(config, benchmarkName, metrics, pairs, looks, alpha,
        (int) arms.stream().filter(a -> a.role().equals("candidate")).count(),
        arms.stream().anyMatch(a -> a.role().equals("ceiling"))));
  }

  /**
   * The design check ({@link DesignCheck}) of an experiment these values describe, before anything is
   * built, fetched or booted; the values as for the record (null = fleet.yaml's).
   */
  static DesignCheck.Result design(FleetConfig config, String benchmarkName, List<String> metrics, Integer pairs,
      List<Integer> looks, Double alpha, int candidates, boolean ceiling) {
    FleetConfig.Benchmark b = config.benchmark(benchmarkName);
    List<String> measured = metrics != null ? metrics : b.metrics();
    List<String> gating = gating(b, measured);
    List<Integer> design = looks != null ? looks
        : pairs != null || config.policy().looks().isEmpty()
            ? List.of(pairs != null ? pairs : config.policy().pairs()) : config.policy().looks();
    FleetConfig.Policy policy = config.policy();
    return DesignCheck.check(new DesignCheck.Design(design, alpha != null ? alpha : policy.alpha(),
        gating.size(), candidates, ceiling || gating.size() < measured.size(), policy.futilityEffect(),
        policy.futilityBeta(), looks != null || (pairs == null && !config.policy().looks().isEmpty())));
  }

  /**
   * An A/A run (every arm the same kernel, or the same build of one, arguments and guest options)
   * measures noise, or soaks a kernel; it decides nothing.
   */
  private static boolean aa(List<AbArm> arms) {
    AbArm first = arms.get(0);
    return arms.stream().allMatch(a -> (a.kernel() != null || a.build() != null)
        && java.util.Objects.equals(a.kernel(), first.kernel()) && java.util.Objects.equals(a.build(), first.build())
        && a.cmdlineExtra().equals(first.cmdlineExtra()) && a.modules().equals(first.modules())
        && a.volumeOptions().equals(first.volumeOptions()));
  }

  /** Refuses (exit 2) a design that can reach no verdict (null: not checked), with the pairs that can. */
  static void refuseUndecidable(DesignCheck.Result check) {
    if (check != null && check.outcome() == DesignCheck.Outcome.REFUSE) {
      throw new Problem(check.refusal("--pairs", "--looks"));
    }
  }

  /** Prints the design check's warnings, one line each; called once, before the first boot. */
  static void warnDesign(DesignCheck.Result check, java.io.PrintStream err) {
    check.warnings().forEach(w -> err.println("abfleet: design: " + w));
  }

  /** This request's design check. */
  DesignCheck.Result design() {
    return design(config, benchmarkName, metrics, pairs, looks, alpha,
        withRole("candidate").size(), !withRole("ceiling").isEmpty());
  }

  /**
   * Gating metrics of {@code b} measuring {@code measured}: its gating list narrowed to them, else all of them.
   * A workload's gating names are its own metrics, known only once it ran: kept unless metrics narrow them.
   */
  private static List<String> gating(FleetConfig.Benchmark b, List<String> measured) {
    List<String> gating = b.workload() != null && measured.isEmpty() ? b.gating()
        : b.gating().stream().filter(measured::contains).toList();
    return gating.isEmpty() ? measured : gating;
  }

  /** Arms given as --baseline, --candidate and --ceiling, shaped by fleet.yaml's vm alone. */
  AbRequest(ArmArg baseline, List<ArmArg> candidates, ArmArg ceiling, FleetConfig config, String benchmarkName,
      List<String> metrics, Integer pairs, List<Integer> looks, Double threshold, Double alpha, Long seed,
      Integer iterations, Integer bootTimeoutS, Boolean warmupBoot, AbHosts hosts) {
    this(AbArm.fromFlags(baseline, candidates, ceiling, config.vm(), AbArm.VmFlags.NONE), config, benchmarkName,
        metrics, pairs, looks, threshold, alpha, seed, iterations, bootTimeoutS, warmupBoot, hosts);
  }

  /** Fleetbench metrics of the harness, or names a workload may report (it reports what it measures). */
  private static void checkMetrics(FleetConfig.Benchmark b, List<String> metrics) {
    if (b.workload() == null) {
      Harnesses.checkMetrics(b.harness(), metrics).ifPresent(msg -> {
        throw new Problem("--metrics: " + msg);
      });
      return;
    }
    for (String m : metrics) {
      WorkloadMetrics.nameProblem(m).ifPresent(msg -> {
        throw new Problem("--metrics: " + msg);
      });
    }
  }

  /**
   * A kernel image; with sim hosts a sim placeholder (see abfleet sim-kernels) or a kernel image.
   * A kernel still to be built is checked once it is ({@link ArmBuilds}).
   */
  private static void checkKernel(AbArm arm, boolean sim) {
    if (arm.unbuilt()) {
      if (sim) {
        throw new Problem(arm.origin() + " " + arm.name() + ": build: with --hypervisor sim; sim hosts boot"
            + " placeholder kernels, not built ones: give kernel: (abfleet sim-kernels writes them)");
      }
      return;
    }
    if (sim) {
      SimArtifacts.checkKernel(arm.kernel()).ifPresent(problem -> {
        throw new Problem(arm.origin() + " " + arm.name() + ": " + problem);
      });
      return;
    }
    KernelImage.check(arm.kernel()).ifPresent(problem -> {
      throw new Problem(arm.origin() + " " + arm.name() + ": " + problem);
    });
  }

  /** The baseline arm; there is exactly one. */
  AbArm baseline() {
    return arms.stream().filter(a -> a.role().equals("baseline")).findFirst().orElseThrow();
  }

  private List<AbArm> withRole(String role) {
    return arms.stream().filter(a -> a.role().equals(role)).toList();
  }

  /** The spec submitted to the controller; hostIds restricts it to those hosts (empty = any matching). */
  ExperimentSpec toSpec(List<String> hostIds) {
    FleetConfig.Benchmark b = config.benchmark(benchmarkName);
    List<String> m = metrics != null ? metrics : b.metrics();
    List<String> gating = gating(b, m);
    Policy.Builder policy = Policy.newBuilder()
        .setNoiseThreshold(threshold != null ? threshold : config.policy().noiseThreshold())
        .setAlpha(alpha != null ? alpha : config.policy().alpha())
        .setPairs(effectiveLooks().isEmpty() ? (pairs != null ? pairs : config.policy().pairs()) : 0)
        .addAllLooks(effectiveLooks())
        .setBootTimeoutS(bootTimeoutS != null ? bootTimeoutS : config.policy().bootTimeoutS())
        .addAllGatingMetrics(gating)
        .setWarmupBoot(warmupBoot != null ? warmupBoot : config.policy().warmupBoot())
        .setFutilityEffect(config.policy().futilityEffect())
        .setFutilityBeta(config.policy().futilityBeta());
    if (config.policy().hostQuiet() != null) {
      policy.setHostQuiet(config.policy().hostQuiet().toProto());
    }
    hosts.classes(policy);
    if (seed != null) {
      policy.setSeed(seed);
    }
    return ExperimentSpec.newBuilder()
        .setName(baseline().name() + "-vs-" + String.join("-", withRole("candidate").stream().map(AbArm::name).toList()))
        .addArms(arm(baseline()))
        .addAllArms(withRole("candidate").stream().map(this::arm).toList())
        .addAllArms(withRole("ceiling").stream().map(this::arm).toList())
        .setBenchmark(b.toProto(m, iterations != null ? iterations : b.iterations()))
        .setSelector(hosts.selector(hostIds))
        .setPolicy(policy)
        .setPriority(hosts.priority())
        .build();
  }

  /** Names of the candidate arms, comma-separated. */
  String candidateNames() {
    return String.join(", ", withRole("candidate").stream().map(AbArm::name).toList());
  }

  /** --looks, else fleet.yaml's policy.looks unless --pairs asks for a fixed design. */
  List<Integer> effectiveLooks() {
    if (looks != null) {
      return looks;
    }
    return pairs != null ? List.of() : config.policy().looks();
  }

  /** This request with {@code arms} in place of its own (the same arms, their kernels built). */
  AbRequest withArms(List<AbArm> built) {
    return new AbRequest(built, config, benchmarkName, metrics, pairs, looks, threshold, alpha, seed, iterations,
        bootTimeoutS, warmupBoot, hosts);
  }

  private Arm arm(AbArm a) {
    if (a.unbuilt()) {
      throw new IllegalStateException("arm " + a.name() + " is submitted before its kernel was built");
    }
    Path kernel = a.kernel().toAbsolutePath().normalize();
    String sha;
    try {
      sha = ArtifactCache.sha256(kernel);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Arm.Builder arm = Arm.newBuilder()
        .setName(a.name())
        .setRole(a.role())
        .setBoot(BootSpec.newBuilder()
            .setKernel(Artifact.newBuilder().setSha256(sha).setUri(kernel.toString()).setSizeBytes(kernel.toFile().length()))
            .setCmdlineExtra(a.cmdlineExtra())
            .setShape(VmShape.newBuilder().setVcpus(a.vcpus()).setMemoryMib(a.memoryMib()).setPinVcpus(a.pinVcpus()))
            .addAllModules(a.modules())
            .setModulesDir(a.modulesDir())
            .setVolumeOptions(a.volumeOptions())
            .setVolumeTransport(a.volume().transport() == null || a.volume().transport().equals("auto") ? ""
                : a.volume().transport())
            .setVolumeCache(a.volume().cache() == null ? "" : a.volume().cache()));
    if (a.built() != null) {
      arm.setBuild(a.built());
    }
    return arm.build();
  }
}
