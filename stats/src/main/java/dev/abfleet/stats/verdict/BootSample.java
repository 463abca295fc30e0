package dev.abfleet.stats.verdict;

/**
 * One value a boot produced for one metric.
 *
 * @param value in {@code unit}
 * @param unit e.g. "ops/s"; empty = none given
 * @param better "higher" or "lower"; empty = not said (higher is assumed)
 * @param warmup a warm-up iteration: shown, never part of the boot's value
 */
public record BootSample(String metric, double value, String unit, String better, boolean warmup) {
  public BootSample {
    unit = unit == null ? "" : unit;
    better = better == null ? "" : better;
  }
}
