package dev.abfleet.stats;

import org.hipparchus.special.Gamma;

/**
 * Boot failure rates of two arms compared with Fisher's exact test (two-sided: the sum of the
 * probabilities of all tables with the same margins that are no more likely than the observed
 * one, as scipy.stats.fisher_exact). A candidate that fails to boot more often is a result.
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
    double p = fisherTwoSided(baselineFailed, baselineBoots - baselineFailed, candidateFailed,
        candidateBoots - candidateFailed);
    Verdict verdict;
    String note = "";
    if (baselineFailed == 0 && candidateFailed == 0) {
      verdict = Verdict.NO_CHANGE;
    } else if (p <= alpha) {
      double rateA = baselineFailed / (double) baselineBoots;
      double rateB = candidateFailed / (double) candidateBoots;
      verdict = rateB > rateA ? Verdict.REGRESSED : Verdict.IMPROVED;
    } else {
      verdict = Verdict.INCONCLUSIVE;
      note = "boots failed, but not significantly more often in one arm";
    }
    return new BootFailureComparison(baselineFailed, baselineBoots, candidateFailed,
        candidateBoots, p, verdict, note);
  }

  /** Fisher's exact two-sided p for the table [[a, b], [c, d]]; 1 for an empty margin. */
  static double fisherTwoSided(int a, int b, int c, int d) {
    int row1 = a + b;
    int col1 = a + c;
    int n = a + b + c + d;
    int lo = Math.max(0, col1 - (n - row1));
    int hi = Math.min(row1, col1);
    double observed = logProb(a, row1, col1, n);
    double p = 0;
    for (int x = lo; x <= hi; x++) {
      double lp = logProb(x, row1, col1, n);
      if (lp <= observed + 1e-7) {
        p += Math.exp(lp);
      }
    }
    return Math.min(1.0, p);
  }

  /** log P(X = x) for the hypergeometric count in cell (1,1) with the given margins. */
  private static double logProb(int x, int row1, int col1, int n) {
    return logChoose(col1, x) + logChoose(n - col1, row1 - x) - logChoose(n, row1);
  }

  private static double logChoose(int n, int k) {
    return Gamma.logGamma(n + 1.0) - Gamma.logGamma(k + 1.0) - Gamma.logGamma(n - k + 1.0);
  }
}
