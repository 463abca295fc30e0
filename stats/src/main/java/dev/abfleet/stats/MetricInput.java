package dev.abfleet.stats;

/**
 * Paired per-boot values of one metric: index i is pair i, one value per boot (iterations
 * already collapsed). NaN marks a boot that produced no value (failed boot).
 */
public record MetricInput(
    String metric,
    String unit,
    Direction better,
    boolean gating,
    double[] baseline,
    double[] candidate) {}
