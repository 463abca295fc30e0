package dev.abfleet.controller.experiment;

import java.util.List;

/**
 * Decision policy; zero values take the documented defaults.
 *
 * @param noiseThreshold relative change counted as noise; default 0.02
 * @param alpha family-wise significance level; default 0.05
 * @param pairs pairs to complete; default 8
 * @param seed order-shuffle seed; 0 = drawn at submit and recorded
 * @param bootTimeoutS per-boot wall-clock limit in seconds; default 120
 * @param gatingMetrics metrics whose verdicts gate; empty = all
 */
public record PolicySpec(
    double noiseThreshold,
    double alpha,
    int pairs,
    long seed,
    int bootTimeoutS,
    List<String> gatingMetrics) {
  public static final double DEFAULT_NOISE = 0.02;
  public static final double DEFAULT_ALPHA = 0.05;
  public static final int DEFAULT_PAIRS = 8;
  public static final int DEFAULT_BOOT_TIMEOUT_S = 120;

  public PolicySpec {
    noiseThreshold = noiseThreshold == 0 ? DEFAULT_NOISE : noiseThreshold;
    alpha = alpha == 0 ? DEFAULT_ALPHA : alpha;
    pairs = pairs == 0 ? DEFAULT_PAIRS : pairs;
    bootTimeoutS = bootTimeoutS == 0 ? DEFAULT_BOOT_TIMEOUT_S : bootTimeoutS;
    gatingMetrics = gatingMetrics == null ? List.of() : List.copyOf(gatingMetrics);
  }

  public static PolicySpec defaults() {
    return new PolicySpec(0, 0, 0, 0, 0, List.of());
  }

  /** True when this metric's verdict gates the experiment. */
  public boolean gates(String metric) {
    return gatingMetrics.isEmpty() || gatingMetrics.contains(metric);
  }
}
