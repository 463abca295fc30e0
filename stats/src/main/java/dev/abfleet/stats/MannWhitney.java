package dev.abfleet.stats;

import java.util.Arrays;
import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * Mann-Whitney U (Wilcoxon rank-sum) test of two independent samples, two-sided, and the
 * order index of the interval for the two-sample Hodges-Lehmann shift.
 *
 * <p>Up to {@link #EXACT_MAX_TOTAL} values in all, the p-value comes from the exact permutation
 * distribution of the rank sum given the observed (mid-)ranks, so ties are handled exactly:
 * ranks are doubled to be integers and the distribution of the sum over all ways to choose
 * the candidate's positions is built by dynamic programming. Above that, the normal
 * approximation with tie and continuity correction (scipy.stats.mannwhitneyu
 * method="asymptotic").
 */
final class MannWhitney {
  /** Largest n1 + n2 for which p-values and intervals are exact. */
  static final int EXACT_MAX_TOTAL = 40;

  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(0, 1);

  private MannWhitney() {}

  /** Two-sided p of "same distribution" for samples x and y; NaN if either is empty. */
  static double twoSidedP(double[] x, double[] y) {
    return twoSidedP(x, y, EXACT_MAX_TOTAL);
  }

  /**
   * As {@link #twoSidedP(double[], double[])}, exact only up to {@code exactMaxTotal} values
   * (diagnostics use the cheap normal approximation: 0).
   */
  static double twoSidedP(double[] x, double[] y, int exactMaxTotal) {
    int n1 = x.length;
    int n2 = y.length;
    if (n1 == 0 || n2 == 0) {
      return Double.NaN;
    }
    double[] all = new double[n1 + n2];
    System.arraycopy(x, 0, all, 0, n1);
    System.arraycopy(y, 0, all, n1, n2);
    int[] ranks2 = doubledMidRanks(all);
    long w2 = 0;
    for (int i = n1; i < all.length; i++) {
      w2 += ranks2[i];
    }
    return n1 + n2 <= exactMaxTotal ? exactP(ranks2, n2, w2) : approxP(ranks2, n1, n2, w2);
  }

  /** Mid-ranks of x (1-based), doubled so that they are integers. */
  static int[] doubledMidRanks(double[] x) {
    int n = x.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(x[a], x[b]));
    int[] ranks2 = new int[n];
    int i = 0;
    while (i < n) {
      int j = i;
      while (j + 1 < n && x[order[j + 1]] == x[order[i]]) {
        j++;
      }
      for (int k = i; k <= j; k++) {
        ranks2[order[k]] = (i + 1) + (j + 1);
      }
      i = j + 1;
    }
    return ranks2;
  }

  /**
   * P(sum of the doubled ranks at k randomly chosen positions = s), for every s; all
   * C(n, k) choices equally likely.
   */
  static double[] nullDistribution(int[] ranks2, int k) {
    int total = Arrays.stream(ranks2).sum();
    double[][] ways = new double[k + 1][total + 1];
    ways[0][0] = 1;
    int reach = 0;
    for (int i = 0; i < ranks2.length; i++) {
      int r = ranks2[i];
      reach += r;
      for (int j = Math.min(k, i + 1); j >= 1; j--) {
        double[] to = ways[j];
        double[] from = ways[j - 1];
        for (int s = reach; s >= r; s--) {
          to[s] += from[s - r];
        }
      }
    }
    double[] p = ways[k];
    double sum = Arrays.stream(p).sum();
    for (int s = 0; s < p.length; s++) {
      p[s] /= sum;
    }
    return p;
  }

  private static double exactP(int[] ranks2, int n2, long w2) {
    return ExactTails.twoSided(nullDistribution(ranks2, n2), w2);
  }

  private static double approxP(int[] ranks2, int n1, int n2, long w2) {
    double n = n1 + n2;
    double u = w2 / 2.0 - n2 * (n2 + 1) / 2.0;
    double mean = n1 * (double) n2 / 2.0;
    int[] sorted = ranks2.clone();
    Arrays.sort(sorted);
    double tieSum = 0;
    int i = 0;
    while (i < sorted.length) {
      int j = i;
      while (j < sorted.length && sorted[j] == sorted[i]) {
        j++;
      }
      double t = j - i;
      tieSum += t * t * t - t;
      i = j;
    }
    double var = n1 * (double) n2 / 12.0 * ((n + 1) - tieSum / (n * (n - 1)));
    if (!(var > 0)) {
      return 1.0;
    }
    double diff = u - mean;
    double corrected = Math.abs(diff) - 0.5;
    double z = Math.max(0, corrected) / Math.sqrt(var);
    return Math.min(1.0, 2.0 * STANDARD_NORMAL.cumulativeProbability(-z));
  }

  /**
   * Order index k of the interval [D(k), D(n1 n2 - k + 1)] over the sorted n1 n2 differences
   * y_j - x_i at two-sided level alpha: the largest k with P(U <= k-1) <= alpha/2 under the
   * untied null (R's wilcox.test(conf.int = TRUE) rule). 0: no interval at that level.
   */
  static long intervalIndex(int n1, int n2, double alpha) {
    if (n1 <= 0 || n2 <= 0) {
      return 0;
    }
    long big = (long) n1 * n2;
    if (n1 + n2 > EXACT_MAX_TOTAL) {
      double sigma = Math.sqrt(n1 * (double) n2 * (n1 + n2 + 1) / 12.0);
      double z = STANDARD_NORMAL.inverseCumulativeProbability(1 - alpha / 2);
      long k = (long) Math.floor(big / 2.0 + 0.5 - z * sigma);
      return Math.max(0, Math.min(k, (big + 1) / 2));
    }
    int[] ranks2 = new int[n1 + n2];
    for (int i = 0; i < ranks2.length; i++) {
      ranks2[i] = 2 * (i + 1);
    }
    double[] dist = nullDistribution(ranks2, n2);
    int offset = n2 * (n2 + 1); // doubled minimum rank sum, i.e. U = 0
    double cumulative = 0;
    long k = 0;
    while (k <= big && cumulative + dist[offset + 2 * (int) k] <= alpha / 2 * (1 + 1e-12)) {
      cumulative += dist[offset + 2 * (int) k];
      k++;
    }
    return Math.min(k, (big + 1) / 2);
  }
}
