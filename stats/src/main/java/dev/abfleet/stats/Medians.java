package dev.abfleet.stats;

import java.util.Arrays;

/** The median as a description of values (not a test): what reports show beside intervals. */
public final class Medians {
  private Medians() {}

  /** Median of the values, ignoring NaN; NaN when none is left (or values is null). */
  public static double of(double[] values) {
    if (values == null) {
      return Double.NaN;
    }
    double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
    int n = v.length;
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
  }
}
