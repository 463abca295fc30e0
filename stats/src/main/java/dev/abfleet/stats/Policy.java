package dev.abfleet.stats;

/**
 * Decision policy of an experiment.
 *
 * @param noiseThreshold relative change below which an effect counts as noise (0.02 = 2%)
 * @param alpha family-wise significance level across the gating metrics
 */
public record Policy(double noiseThreshold, double alpha) {
  public static final Policy DEFAULT = new Policy(0.02, 0.05);
}
