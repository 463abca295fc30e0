package dev.abfleet.worker.guest;

/**
 * One measured iteration of one metric inside one boot.
 *
 * @param metric metric name, e.g. "metadata_stat"
 * @param value finite value in {@code unit}
 * @param unit e.g. "ops/s" or "MiB/s"
 * @param better which direction is better
 * @param iteration 0-based index within the metric in this boot; warm-ups come first
 * @param warmup true for warm-up iterations, which verdicts ignore
 */
public record GuestSample(
    String metric, double value, String unit, Better better, int iteration, boolean warmup) {}
