package dev.abfleet.controller.experiment;

import dev.abfleet.controller.plan.HostQuiet;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import java.util.List;

/**
 * Decision policy; zero values take the documented defaults.
 *
 * @param noiseThreshold relative change counted as noise; default 0.02
 * @param alpha family-wise significance level; default 0.05
 * @param pairs pairs to complete; default 8
 * @param seed order-shuffle seed; 0 = drawn at submit and recorded
 * @param bootTimeoutS per-boot wall-clock limit in seconds, used as given; 0 = adaptive: from the
 *     benchmark's size and the durations of the arm's completed boots
 *     ({@link dev.abfleet.controller.plan.BootTimeouts}). Experiments journalled when 0 meant
 *     120 s carry the 120 and replay with it.
 * @param gatingMetrics metrics whose verdicts gate; empty = all
 * @param looks ascending pair counts at which the experiment may stop early (group-sequential
 *     design); empty = a fixed design of {@code pairs}; when set, {@code pairs} is the last look
 * @param classBy host-class dimensions beyond hypervisor and accelerator: "cpu_model", "arch"
 *     or "label:KEY" ({@link HostClassKey}); empty = hypervisor and accelerator only
 * @param warmupBoot the first block on a freshly leased host starts with a warm-up boot of the
 *     baseline arm that never counts (see {@link ExperimentState#freshLease})
 * @param futilityEffect with looks: the smallest change worth finding; a metric whose futility
 *     interval fits ±max(it, noiseThreshold) at a look is called no change there
 *     ({@link dev.abfleet.stats.SequentialPlan}); 0 = no futility stop (also what experiments
 *     journaled before the field existed replay with)
 * @param futilityBeta per-metric bound on a futility call when the metric really changed by
 *     futilityEffect; default 0.10
 * @param hostQuiet the quiet-host policy; null = {@link HostQuiet#OFF} (also what experiments
 *     journaled before the field existed replay with)
 */
public record PolicySpec(
    double noiseThreshold,
    double alpha,
    int pairs,
    long seed,
    int bootTimeoutS,
    List<String> gatingMetrics,
    List<Integer> looks,
    List<String> classBy,
    boolean warmupBoot,
    double futilityEffect,
    double futilityBeta,
    @com.fasterxml.jackson.annotation.JsonInclude(value = com.fasterxml.jackson.annotation.JsonInclude.Include.CUSTOM,
        valueFilter = HostQuiet.OmitDefaults.class)
    HostQuiet hostQuiet) {
  public static final double DEFAULT_NOISE = dev.abfleet.stats.Policy.DEFAULT_NOISE_THRESHOLD;
  public static final double DEFAULT_ALPHA = dev.abfleet.stats.Policy.DEFAULT_ALPHA;
  public static final int DEFAULT_PAIRS = 8;
  /** The protocol's default, which workers apply when a run carries no timeout. */
  public static final int DEFAULT_BOOT_TIMEOUT_S = ProtocolConstants.DEFAULT_BOOT_TIMEOUT_S_VALUE;

  public PolicySpec {
    noiseThreshold = noiseThreshold == 0 ? DEFAULT_NOISE : noiseThreshold;
    alpha = alpha == 0 ? DEFAULT_ALPHA : alpha;
    pairs = pairs == 0 ? DEFAULT_PAIRS : pairs;
    gatingMetrics = gatingMetrics == null ? List.of() : List.copyOf(gatingMetrics);
    looks = looks == null ? List.of() : List.copyOf(looks);
    classBy = classBy == null ? List.of() : List.copyOf(classBy);
    futilityBeta = futilityBeta == 0 ? dev.abfleet.stats.Policy.DEFAULT_FUTILITY_BETA : futilityBeta;
    hostQuiet = hostQuiet == null ? HostQuiet.OFF : hostQuiet;
    if (!looks.isEmpty() && pairs == DEFAULT_PAIRS) {
      pairs = looks.get(looks.size() - 1);
    }
  }

  /** No quiet-host policy. */
  public PolicySpec(double noiseThreshold, double alpha, int pairs, long seed, int bootTimeoutS,
      List<String> gatingMetrics, List<Integer> looks, List<String> classBy, boolean warmupBoot,
      double futilityEffect, double futilityBeta) {
    this(noiseThreshold, alpha, pairs, seed, bootTimeoutS, gatingMetrics, looks, classBy, warmupBoot,
        futilityEffect, futilityBeta, null);
  }

  /** The same policy with this quiet-host policy. */
  public PolicySpec withHostQuiet(HostQuiet quiet) {
    return new PolicySpec(noiseThreshold, alpha, pairs, seed, bootTimeoutS, gatingMetrics, looks,
        classBy, warmupBoot, futilityEffect, futilityBeta, quiet);
  }

  /** No futility stop. */
  public PolicySpec(double noiseThreshold, double alpha, int pairs, long seed, int bootTimeoutS,
      List<String> gatingMetrics, List<Integer> looks, List<String> classBy, boolean warmupBoot) {
    this(noiseThreshold, alpha, pairs, seed, bootTimeoutS, gatingMetrics, looks, classBy, warmupBoot,
        0, 0);
  }

  /** Classes by hypervisor and accelerator only, without warm-up boots. */
  public PolicySpec(double noiseThreshold, double alpha, int pairs, long seed, int bootTimeoutS,
      List<String> gatingMetrics, List<Integer> looks) {
    this(noiseThreshold, alpha, pairs, seed, bootTimeoutS, gatingMetrics, looks, List.of(), false);
  }

  /** Without warm-up boots. */
  public PolicySpec(double noiseThreshold, double alpha, int pairs, long seed, int bootTimeoutS,
      List<String> gatingMetrics, List<Integer> looks, List<String> classBy) {
    this(noiseThreshold, alpha, pairs, seed, bootTimeoutS, gatingMetrics, looks, classBy, false);
  }

  /** Classes by hypervisor and accelerator only. */
  public PolicySpec(double noiseThreshold, double alpha, int pairs, long seed, int bootTimeoutS,
      List<String> gatingMetrics, List<Integer> looks, boolean warmupBoot) {
    this(noiseThreshold, alpha, pairs, seed, bootTimeoutS, gatingMetrics, looks, List.of(), warmupBoot);
  }

  /** A fixed design (no interim looks). */
  public PolicySpec(double noiseThreshold, double alpha, int pairs, long seed, int bootTimeoutS,
      List<String> gatingMetrics) {
    this(noiseThreshold, alpha, pairs, seed, bootTimeoutS, gatingMetrics, List.of());
  }

  public static PolicySpec defaults() {
    return new PolicySpec(0, 0, 0, 0, 0, List.of());
  }

  /** The verdict engine's policy, looks included. */
  public dev.abfleet.stats.Policy statsPolicy() {
    return new dev.abfleet.stats.Policy(noiseThreshold, alpha, looks, futilityEffect, futilityBeta);
  }

  /** True when this metric's verdict gates the experiment. */
  public boolean gates(String metric) {
    return gatingMetrics.isEmpty() || gatingMetrics.contains(metric);
  }
}
