package dev.abfleet.stats;

/** Two-sided p-values from an exact null distribution over integer statistic values. */
final class ExactTails {
  private ExactTails() {}

  /**
   * Twice the smaller tail at {@code observed} (both tails include it), capped at 1.
   *
   * @param dist probability of each statistic value 0..dist.length-1
   */
  static double twoSided(double[] dist, long observed) {
    double lower = 0;
    double upper = 0;
    for (int s = 0; s < dist.length; s++) {
      if (s <= observed) {
        lower += dist[s];
      }
      if (s >= observed) {
        upper += dist[s];
      }
    }
    return Math.min(1.0, 2.0 * Math.min(lower, upper));
  }
}
