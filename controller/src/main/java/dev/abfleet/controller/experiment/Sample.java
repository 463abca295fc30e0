package dev.abfleet.controller.experiment;

/**
 * One value the guest harness reported.
 *
 * @param value in {@code unit}
 * @param better "higher" or "lower"
 * @param iteration 0-based iteration within the boot
 * @param warmup warm-up iterations are ignored by verdicts
 */
public record Sample(
    String metric, double value, String unit, String better, int iteration, boolean warmup) {

  public Sample {
    // A running fleet holds millions of samples naming a handful of metrics: one copy of each
    // name, whether it came from a worker's report or from the journal.
    metric = metric == null ? null : metric.intern();
    unit = unit == null ? null : unit.intern();
    better = better == null ? null : better.intern();
  }
}
