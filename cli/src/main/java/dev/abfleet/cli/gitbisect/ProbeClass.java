package dev.abfleet.cli.gitbisect;

import dev.abfleet.controller.bisect.ProbeRule;

/**
 * Which end of the range a probe resembles, judged on the bisected metric against the good
 * endpoint's kernel. Changes are direction-aware: negative = worse, whatever the unit.
 *
 * <ul>
 *   <li>GOOD: the interval rules out {@value #RULED_OUT_FRACTION} of the regression measured
 *       between the endpoints (its worse end is better than that fraction of it), even if it also
 *       rules out no change (a smaller change of its own, nearer the good end).
 *   <li>BAD: otherwise, when the probe's interval rules out no change on the worse side (its better
 *       end is still worse than the good kernel).
 *   <li>AMBIGUOUS: neither; the search stops there and reports the open range.
 * </ul>
 * The same rule as the controller's bisect ({@link ProbeRule#classify}), at its default fraction.
 *
 * A BAD probe whose estimate is nearer the good end ({@link #doubtful}) is measured again with
 * twice the pairs, and the second measurement decides.
 *
 * Error rates: a probe is called BAD only when its interval excludes zero, so at the
 * experiment's alpha a good probe is called bad at most alpha/2 of the time (one side of a
 * two-sided interval); a bad probe is called GOOD only when its interval excludes half the
 * endpoint regression, which for a bad probe (whose true change is the full regression) is again
 * an interval missing its true value on one side: at most alpha/2.
 */
public enum ProbeClass {
  GOOD, BAD, AMBIGUOUS;

  /** The fraction of the endpoint regression a good probe's interval must rule out. */
  public static final double RULED_OUT_FRACTION = ProbeRule.DEFAULT_FRACTION;

  /**
   * @param worseLow  the interval's worse end, as a direction-aware log-free relative change (negative = worse)
   * @param worseHigh the interval's better end
   * @param endpoint  the regression between the endpoints, direction-aware (negative)
   */
  public static ProbeClass of(double worseLow, double worseHigh, double endpoint) {
    return switch (ProbeRule.classify(worseLow, worseHigh, endpoint, RULED_OUT_FRACTION)) {
      case GOOD -> GOOD;
      case BAD -> BAD;
      case INCONCLUSIVE -> AMBIGUOUS;
    };
  }

  /**
   * A BAD probe whose estimate lies nearer the good end than the bad one (above half the
   * endpoints' regression): a partial regression, or noise that ruled out zero by chance. Such a
   * probe is measured once more before it decides anything; GOOD is never doubtful this way (its
   * whole interval, the estimate with it, lies above half the regression).
   */
  public static boolean doubtful(ProbeClass c, double change, double endpoint) {
    return c == BAD && change > RULED_OUT_FRACTION * endpoint;
  }

  /** A relative change's interval turned direction-aware: for lower-is-better metrics, a rise is worse. */
  public static double[] directionAware(double ciLow, double ciHigh, boolean higherIsBetter) {
    return higherIsBetter ? new double[] {ciLow, ciHigh} : new double[] {-ciHigh, -ciLow};
  }
}
