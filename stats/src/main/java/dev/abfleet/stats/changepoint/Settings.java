package dev.abfleet.stats.changepoint;

/**
 * How {@link ChangePoints#detect} decides.
 *
 * @param alpha significance level of each split test (permutation p-value <= alpha flags)
 * @param minSegment fewest values a segment may have on either side of a change; 3 or more
 *     means one outlier, or two, can never form a segment of its own
 * @param permutations random permutations per split test; the smallest attainable p-value is
 *     1 / (permutations + 1)
 * @param minRelative smallest change worth flagging (0 = any significant shift), judged on the
 *     final neighbouring segments' medians: |relative| for a series of levels (ignored where
 *     the relative change is undefined), |shift| for a series of {@code differences}
 * @param differences the values are already changes against a baseline (e.g. -0.05 = 5% worse
 *     than that night's baseline): a point's magnitude is its shift, and its relative change
 *     (a ratio of two ratios) is not computed
 */
public record Settings(double alpha, int minSegment, int permutations, double minRelative, boolean differences) {
  /**
   * 1% per split test (a false alarm costs someone a morning of bisecting), segments of at
   * least 3 nights, 999 permutations, any magnitude.
   */
  public static final Settings DEFAULT = new Settings(0.01, 3, 999, 0.0);

  /** A series of levels (a metric's value per night). */
  public Settings(double alpha, int minSegment, int permutations, double minRelative) {
    this(alpha, minSegment, permutations, minRelative, false);
  }

  public Settings {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha " + alpha + " is outside (0, 1)");
    }
    if (minSegment < 2) {
      throw new IllegalArgumentException("minSegment " + minSegment + " is below 2");
    }
    if (permutations < 19) {
      throw new IllegalArgumentException("permutations " + permutations + " is below 19");
    }
    if (!(minRelative >= 0)) {
      throw new IllegalArgumentException("minRelative " + minRelative + " is negative");
    }
  }

  public Settings withMinRelative(double value) {
    return new Settings(alpha, minSegment, permutations, value, differences);
  }

  public Settings withDifferences(boolean value) {
    return new Settings(alpha, minSegment, permutations, minRelative, value);
  }
}
