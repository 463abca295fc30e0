package dev.abfleet.cli.bisect;

/** Runs boot pairs of two artifacts and returns one value per boot of the bisected metric. */
@FunctionalInterface
public interface PairSource {
  /**
   * Values of {@code pairs} new pairs, index = pair; NaN for a boot that produced no value.
   *
   * @param better "higher" or "lower", as the harness reports the metric
   * @param hosts host of each pair (null = one host)
   * @param baselineFirst whether the good artifact booted first in each pair (null = unknown)
   */
  record Batch(double[] good, double[] candidate, String unit, String better, String[] hosts,
      boolean[] baselineFirst) {}

  /** One experiment: {@code pairs} back-to-back pairs of artifact {@code good} and {@code candidate}. */
  Batch run(int good, int candidate, int pairs);
}
