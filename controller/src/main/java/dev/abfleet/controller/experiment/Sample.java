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
    String metric, double value, String unit, String better, int iteration, boolean warmup) {}
