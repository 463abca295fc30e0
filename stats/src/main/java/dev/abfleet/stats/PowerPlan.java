package dev.abfleet.stats;

import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * Pairs a paired experiment needs to detect a relative change: the normal approximation of a
 * two-sided paired test on log ratios, n = ((z_{1-alpha/2m} + z_power) * sd / ln(1 + mde))^2,
 * with alpha split over the m gating metrics (Bonferroni, as the family-wise error control of a
 * verdict spends it at worst), divided by the Wilcoxon signed-rank test's asymptotic relative
 * efficiency to the t test at the normal, 3/pi (the engine's test is a signed-rank test), rounded
 * up and at least {@value #MIN_PAIRS} (below that the signed-rank test cannot reach small p at all).
 * Pure.
 */
public final class PowerPlan {
  /** The fewest pairs planned. */
  public static final int MIN_PAIRS = 6;
  /** Asymptotic relative efficiency of the signed-rank test to the t test for normal data. */
  public static final double SIGNED_RANK_ARE = 3 / Math.PI;
  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(0, 1);

  private PowerPlan() {}

  /**
   * Pairs needed; -1 when {@code pairedSd} is not a positive finite number (too few pairs were
   * measured to know the noise).
   *
   * @param pairedSd sd of the paired log-ratio differences
   * @param mde the relative change to detect, e.g. 0.02
   * @param alpha family-wise significance level
   * @param metrics gating metrics the alpha is split over (at least 1)
   * @param power probability of detecting a change of mde, e.g. 0.8
   */
  public static long pairs(double pairedSd, double mde, double alpha, int metrics, double power) {
    if (!(pairedSd > 0) || !Double.isFinite(pairedSd)) {
      return -1;
    }
    double zAlpha = STANDARD_NORMAL.inverseCumulativeProbability(1 - alpha / (2.0 * Math.max(1, metrics)));
    double zPower = STANDARD_NORMAL.inverseCumulativeProbability(power);
    double n = Math.pow((zAlpha + zPower) * pairedSd / Math.log(1 + mde), 2) / SIGNED_RANK_ARE;
    return Math.max(MIN_PAIRS, (long) Math.ceil(n - 1e-9));
  }
}
