package dev.abfleet.stats;

import java.util.Arrays;
import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * Wilcoxon signed-rank test for paired differences, two-sided.
 *
 * <p>Zero differences are dropped (Wilcoxon's method). Up to {@link #EXACT_MAX_N} non-zero
 * differences the p-value comes from the exact permutation distribution of T+ given the
 * observed ranks: mid-ranks are doubled so that they are integers even with ties, and the
 * distribution of their signed sum is built by dynamic programming. Above that, the normal
 * approximation with tie and continuity correction is used.
 */
final class SignedRank {
  /** Largest number of non-zero differences for which p-values and intervals are exact. */
  static final int EXACT_MAX_N = 50;

  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(0, 1);

  private SignedRank() {}

  /** Two-sided p-value of H0 "differences are symmetric about 0"; 1 when all are zero. */
  static double twoSidedP(double[] d) {
    double[] nonZero = Arrays.stream(d).filter(x -> x != 0).toArray();
    int n = nonZero.length;
    if (n == 0) {
      return 1.0; // every difference is zero: no evidence of any shift
    }
    int[] ranks2 = doubledMidRanks(nonZero);
    long tPlus2 = 0;
    for (int i = 0; i < n; i++) {
      if (nonZero[i] > 0) {
        tPlus2 += ranks2[i];
      }
    }
    return n <= EXACT_MAX_N ? exactP(ranks2, tPlus2) : approxP(ranks2, tPlus2);
  }

  /**
   * Ranks of |x| (1-based), ties get the mean rank; returned doubled (2 * mid-rank), which is
   * always an integer.
   */
  static int[] doubledMidRanks(double[] x) {
    int n = x.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(Math.abs(x[a]), Math.abs(x[b])));
    int[] ranks2 = new int[n];
    int i = 0;
    while (i < n) {
      int j = i;
      while (j + 1 < n && Math.abs(x[order[j + 1]]) == Math.abs(x[order[i]])) {
        j++;
      }
      int doubled = (i + 1) + (j + 1); // 2 * mean of ranks i+1..j+1
      for (int k = i; k <= j; k++) {
        ranks2[order[k]] = doubled;
      }
      i = j + 1;
    }
    return ranks2;
  }

  /**
   * Null distribution of the doubled signed-rank sum: element s is P(sum of the doubled ranks
   * that get a + sign = s) when each sign is + or - with probability 1/2 independently.
   */
  static double[] nullDistribution(int[] ranks2) {
    int total = Arrays.stream(ranks2).sum();
    double[] p = new double[total + 1];
    p[0] = 1.0;
    int reach = 0;
    for (int r : ranks2) {
      reach += r;
      for (int s = reach; s >= 0; s--) {
        double with = s >= r ? p[s - r] : 0.0;
        p[s] = 0.5 * (p[s] + with);
      }
    }
    return p;
  }

  private static double exactP(int[] ranks2, long tPlus2) {
    return ExactTails.twoSided(nullDistribution(ranks2), tPlus2);
  }

  /** Same as scipy.stats.wilcoxon(method="approx", correction=True), two-sided. */
  private static double approxP(int[] ranks2, long tPlus2) {
    double n = ranks2.length;
    double mean = n * (n + 1) / 4.0;
    double tieSum = 0;
    int[] sorted = ranks2.clone();
    Arrays.sort(sorted);
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
    double se = Math.sqrt((n * (n + 1) * (2 * n + 1) - tieSum / 2.0) / 24.0);
    double diff = tPlus2 / 2.0 - mean;
    double corrected = diff - Math.signum(diff) * 0.5;
    if (se == 0) {
      return 1.0;
    }
    double z = corrected / se;
    return Math.min(1.0, 2.0 * STANDARD_NORMAL.cumulativeProbability(-Math.abs(z)));
  }

  /**
   * Order index k of the confidence interval [W(k), W(N-k+1)] over the N sorted Walsh
   * averages of n differences at two-sided level {@code alpha}: the largest k with
   * P(T+ <= k-1) <= alpha/2 under the continuous (untied) null. 0 means no interval at that
   * level exists with n pairs.
   */
  static long intervalIndex(int n, double alpha) {
    if (n <= 0) {
      return 0;
    }
    long big = (long) n * (n + 1) / 2;
    if (n > EXACT_MAX_N) {
      double sigma = Math.sqrt(n * (n + 1.0) * (2.0 * n + 1.0) / 24.0);
      double z = STANDARD_NORMAL.inverseCumulativeProbability(1 - alpha / 2);
      long k = (long) Math.floor(big / 2.0 + 0.5 - z * sigma);
      return Math.max(0, Math.min(k, (big + 1) / 2));
    }
    double[] dist = untiedDistribution(n);
    double cumulative = 0;
    long k = 0;
    // P(T+ <= k-1) for k = 1, 2, ...; small tolerance so that exact ties at alpha/2 count.
    while (k < dist.length && cumulative + dist[(int) k] <= alpha / 2 * (1 + 1e-12)) {
      cumulative += dist[(int) k];
      k++;
    }
    return Math.min(k, (big + 1) / 2);
  }

  /** Null distribution of T+ (ordinary, not doubled) with ranks 1..n. */
  static double[] untiedDistribution(int n) {
    int big = n * (n + 1) / 2;
    double[] p = new double[big + 1];
    p[0] = 1.0;
    int reach = 0;
    for (int r = 1; r <= n; r++) {
      reach += r;
      for (int s = reach; s >= 0; s--) {
        double with = s >= r ? p[s - r] : 0.0;
        p[s] = 0.5 * (p[s] + with);
      }
    }
    return p;
  }
}
