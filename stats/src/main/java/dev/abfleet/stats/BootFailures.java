package dev.abfleet.stats;

import org.hipparchus.distribution.discrete.HypergeometricDistribution;

/**
 * Boot failure rates of two arms compared with Fisher's exact test, one-sided in the direction
 * the candidate moved (as scipy.stats.fisher_exact with {@code alternative='less'} for a
 * candidate that fails more often, {@code 'greater'} for one that fails less often).
 *
 * <p>One-sided because the question the gate asks is directional: does the candidate fail to
 * boot more often? A one-sided test at alpha calls a candidate regressed with probability at
 * most alpha when it fails no more often than the baseline; the two-sided test would spend half
 * of alpha on a direction that never gates, and at the sample sizes people run (8 pairs) could
 * not call even 4 failures of 8 boots against none (two-sided p=0.077, one-sided p=0.038).
 */
public final class BootFailures {
  private BootFailures() {}

  /**
   * @param baselineFailed failed baseline boots
   * @param baselineBoots all baseline boots attempted (failed included)
   * @param candidateFailed failed candidate boots
   * @param candidateBoots all candidate boots attempted
   * @param alpha level of the test
   * @return the comparison; regressed when the candidate fails significantly more often,
   *     improved when less often, no_change when neither arm failed, else inconclusive with
   *     reason boot_failures. Counts out of range give inconclusive with a warning.
   */
  public static BootFailureComparison compare(int baselineFailed, int baselineBoots,
      int candidateFailed, int candidateBoots, double alpha) {
    if (baselineFailed < 0 || candidateFailed < 0 || baselineFailed > baselineBoots
        || candidateFailed > candidateBoots) {
      return new BootFailureComparison(baselineFailed, baselineBoots, candidateFailed,
          candidateBoots, Double.NaN, Verdict.INCONCLUSIVE,
          "failed boots must be between 0 and the boots attempted");
    }
    if (baselineFailed == 0 && candidateFailed == 0) {
      return new BootFailureComparison(baselineFailed, baselineBoots, candidateFailed,
          candidateBoots, 1.0, Verdict.NO_CHANGE, "");
    }
    double rateA = baselineFailed / (double) baselineBoots;
    double rateB = candidateFailed / (double) candidateBoots;
    int baselineOk = baselineBoots - baselineFailed;
    int candidateOk = candidateBoots - candidateFailed;
    boolean worse = rateB >= rateA;
    double p = worse
        ? fisherCandidateWorse(baselineFailed, baselineOk, candidateFailed, candidateOk)
        : fisherCandidateBetter(baselineFailed, baselineOk, candidateFailed, candidateOk);
    if (p <= alpha && rateA != rateB) {
      return new BootFailureComparison(baselineFailed, baselineBoots, candidateFailed,
          candidateBoots, p, worse ? Verdict.REGRESSED : Verdict.IMPROVED, "");
    }
    return new BootFailureComparison(baselineFailed, baselineBoots, candidateFailed,
        candidateBoots, p, Verdict.INCONCLUSIVE,
        "boots failed, but not significantly more often in one arm");
  }

  /**
   * One-sided p that the candidate fails more often, for the table [[a, b], [c, d]] (rows:
   * baseline, candidate; columns: failed, ok): P(X <= a) for the hypergeometric count of the
   * baseline's failures. As scipy's {@code fisher_exact(table, alternative='less')}.
   */
  static double fisherCandidateWorse(int a, int b, int c, int d) {
    return Math.min(1.0, baselineFailures(a, b, c, d).cumulativeProbability(a));
  }

  /** One-sided p that the candidate fails less often: P(X >= a); scipy's 'greater'. */
  static double fisherCandidateBetter(int a, int b, int c, int d) {
    return Math.min(1.0, baselineFailures(a, b, c, d).upperCumulativeProbability(a));
  }

  /**
   * The null distribution of the baseline's failures given the margins: {@code a + b}
   * baseline boots drawn from all boots, {@code a + c} of which failed.
   */
  private static HypergeometricDistribution baselineFailures(int a, int b, int c, int d) {
    return new HypergeometricDistribution(a + b + c + d, a + c, a + b);
  }
}
