package dev.abfleet.stats;

import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * Kendall's tau test of a monotone trend of values over their index (drift over the run).
 * Exact permutation p-value when the values are untied and n <= {@link #EXACT_MAX_N};
 * otherwise the normal approximation with tie-corrected variance, as in
 * scipy.stats.kendalltau(method="asymptotic").
 */
final class Trend {
  static final int EXACT_MAX_N = 50;

  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(0, 1);

  /**
   * @param tau Kendall's tau-b of value against index, in [-1, 1]
   * @param p two-sided p-value of "no monotone trend"; NaN below 3 values
   */
  record Result(double tau, double p) {}

  private Trend() {}

  static Result kendall(double[] y) {
    int n = y.length;
    if (n < 3) {
      return new Result(Double.NaN, Double.NaN);
    }
    long pairs = (long) n * (n - 1) / 2;
    double[] sorted = y.clone();
    long discordant = inversions(sorted, new double[n], 0, n);
    long tiedPairs = tiedPairs(sorted);
    long concordant = pairs - tiedPairs - discordant;
    long s = concordant - discordant;
    double denominator = Math.sqrt((double) pairs * (pairs - tiedPairs));
    double tau = denominator == 0 ? Double.NaN : s / denominator;
    if (denominator == 0) {
      return new Result(tau, 1.0);
    }
    double p = tiedPairs == 0 && n <= EXACT_MAX_N
        ? exactP(n, Math.min(concordant, discordant))
        : approxP(y, s);
    return new Result(tau, p);
  }

  /**
   * Pairs i &lt; j with y[i] &gt; y[j] in y[from, to), counted by merge sort (Knight's
   * algorithm for tau), which leaves that range sorted: O(n log n) instead of comparing all
   * pairs. Equal values are not inversions.
   */
  private static long inversions(double[] y, double[] scratch, int from, int to) {
    if (to - from < 2) {
      return 0;
    }
    int mid = (from + to) >>> 1;
    long count = inversions(y, scratch, from, mid) + inversions(y, scratch, mid, to);
    int i = from;
    int j = mid;
    int k = from;
    while (i < mid && j < to) {
      if (y[j] < y[i]) {
        count += mid - i; // y[j] is below every value left in the first half
        scratch[k++] = y[j++];
      } else {
        scratch[k++] = y[i++];
      }
    }
    while (i < mid) {
      scratch[k++] = y[i++];
    }
    while (j < to) {
      scratch[k++] = y[j++];
    }
    System.arraycopy(scratch, from, y, from, to - from);
    return count;
  }

  /** Pairs of equal values in sorted values. */
  private static long tiedPairs(double[] sorted) {
    long tied = 0;
    int i = 0;
    while (i < sorted.length) {
      int j = i;
      while (j < sorted.length && sorted[j] == sorted[i]) {
        j++;
      }
      tied += (long) (j - i) * (j - i - 1) / 2;
      i = j;
    }
    return tied;
  }

  /** 2 * P(inversions <= c) under a uniformly random permutation (Mahonian numbers). */
  private static double exactP(int n, long c) {
    double[] cdf = MAHONIAN_CDF.computeIfAbsent(n, Trend::mahonianCdf);
    return Math.min(1.0, 2.0 * cdf[(int) Math.min(c, cdf.length - 1)]);
  }

  // n -> P(inversions <= s) for s = 0..n(n-1)/2; a pure function of n, so computed once per n.
  private static final java.util.Map<Integer, double[]> MAHONIAN_CDF =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static double[] mahonianCdf(int n) {
    int max = n * (n - 1) / 2;
    double[] p = new double[max + 1];
    p[0] = 1.0;
    int reach = 0;
    // Element k (1-based) adds 0..k-1 inversions, uniformly.
    for (int k = 2; k <= n; k++) {
      reach += k - 1;
      double[] next = new double[max + 1];
      double window = 0;
      for (int s = 0; s <= reach; s++) {
        window += p[s];
        if (s - k >= 0) {
          window -= p[s - k];
        }
        next[s] = window / k;
      }
      p = next;
    }
    double running = 0;
    for (int s = 0; s <= max; s++) {
      running += p[s];
      p[s] = running;
    }
    return p;
  }

  private static double approxP(double[] y, long s) {
    int n = y.length;
    double[] sorted = y.clone();
    java.util.Arrays.sort(sorted);
    double tieTerm = 0;
    int i = 0;
    while (i < n) {
      int j = i;
      while (j < n && sorted[j] == sorted[i]) {
        j++;
      }
      double t = j - i;
      tieTerm += t * (t - 1) * (2 * t + 5);
      i = j;
    }
    double var = ((double) n * (n - 1) * (2.0 * n + 5) - tieTerm) / 18.0;
    double z = s / Math.sqrt(var);
    return Math.min(1.0, 2.0 * STANDARD_NORMAL.cumulativeProbability(-Math.abs(z)));
  }
}
