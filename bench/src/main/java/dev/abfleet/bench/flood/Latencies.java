package dev.abfleet.bench.flood;

import java.util.Arrays;

/**
 * Latencies of one client's calls: nearest-rank percentiles over every call.
 *
 * @param millis each call's latency in ms, in call order
 * @param errors calls that failed
 */
public record Latencies(double[] millis, int errors) {

  /** The value below which {@code q} of the calls fall (nearest rank); NaN with no calls. */
  public double percentile(double q) {
    if (millis.length == 0) {
      return Double.NaN;
    }
    double[] sorted = millis.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  public double max() {
    return Arrays.stream(millis).max().orElse(Double.NaN);
  }

  public int calls() {
    return millis.length;
  }
}
