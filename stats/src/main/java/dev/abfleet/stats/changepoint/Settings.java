package dev.abfleet.stats.changepoint;

/**
 * How {@link ChangePoints#detect} decides.
 *
 * @param alpha significance level of each split test (permutation p-value <= alpha flags)
 * @param minSegment fewest values a segment may have on either side of a change; 3 or more
 *     means one outlier, or two, can never form a segment of its own
 * @param permutations random permutations per split test; the smallest attainable p-value is
 *     1 / (permutations + 1)
 * @param minRelative smallest |relative| change worth flagging (0 = any significant shift);
 *     ignored where the relative change is undefined
 */
public record Settings(double alpha, int minSegment, int permutations, double minRelative) {
  /**
   * 1% per split test (a false alarm costs someone a morning of bisecting), segments of at
   * least 3 nights, 999 permutations, any magnitude.
   */
  public static final Settings DEFAULT = new Settings(0.01, 3, 999, 0.0);

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
    return new Settings(alpha, minSegment, permutations, value);
  }
}
