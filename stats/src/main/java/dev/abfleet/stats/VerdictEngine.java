package dev.abfleet.stats;

import java.util.List;

/** Entry point of the verdict engine. Pure: no I/O, no clock. */
public final class VerdictEngine {
  private VerdictEngine() {}

  /** Paired comparison of every metric, family-wise error control across gating metrics. */
  public static List<Comparison> comparePaired(List<MetricInput> metrics, Policy policy) {
    throw new UnsupportedOperationException("verdict engine not built yet");
  }

  /** Median of the values, ignoring NaN; NaN when none is left. */
  public static double median(double[] values) {
    throw new UnsupportedOperationException("verdict engine not built yet");
  }
}
