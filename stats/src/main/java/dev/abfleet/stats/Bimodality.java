package dev.abfleet.stats;

import java.util.Arrays;

/**
 * Flags samples that fall into two separated groups (e.g. boots that took a slow path).
 *
 * <p>The sorted sample is split where the within-group sum of squares is least, each group
 * holding at least max(3, 10%) of the values, and Ashman's D = sqrt(2) |m1 - m2| /
 * sqrt(s1^2 + s2^2) is computed for that split. The best split of a unimodal sample already
 * has a large D, so the thresholds were set by simulation: D above {@link #D_SMALL} (12 to 23
 * values) or {@link #D_LARGE} (24 or more) occurs in under 0.1% of normal samples and under
 * 1% of heavy-tailed (Student t, 3 df) ones. Below 12 values nothing is flagged, nor are
 * groups closer than a given gap (the noise threshold: modes closer than that cannot change a
 * verdict, and quantised values would otherwise look like many small modes).
 */
final class Bimodality {
  static final int MIN_N = 12;
  static final double D_SMALL = 6.0;
  static final double D_LARGE = 4.5;

  private Bimodality() {}

  /** Ashman's D of the best two-group split; NaN below {@link #MIN_N} values. */
  static double ashmanD(double[] values) {
    double[] split = split(values);
    return split == null ? Double.NaN : split[0];
  }

  /** {Ashman's D, |m1 - m2|} of the best split; null below {@link #MIN_N} values. */
  private static double[] split(double[] values) {
    int n = values.length;
    if (n < MIN_N) {
      return null;
    }
    double[] x = values.clone();
    Arrays.sort(x);
    double[] prefix = new double[n + 1];
    double[] prefixSq = new double[n + 1];
    for (int i = 0; i < n; i++) {
      prefix[i + 1] = prefix[i] + x[i];
      prefixSq[i + 1] = prefixSq[i] + x[i] * x[i];
    }
    int minSize = Math.max(3, (int) Math.ceil(0.1 * n));
    double bestSs = Double.POSITIVE_INFINITY;
    int best = -1;
    for (int k = minSize; k <= n - minSize; k++) {
      double ss = ss(prefix, prefixSq, 0, k) + ss(prefix, prefixSq, k, n);
      if (ss < bestSs) {
        bestSs = ss;
        best = k;
      }
    }
    int k = best;
    double m1 = (prefix[k] - prefix[0]) / k;
    double m2 = (prefix[n] - prefix[k]) / (n - k);
    double v1 = ss(prefix, prefixSq, 0, k) / (k - 1);
    double v2 = ss(prefix, prefixSq, k, n) / (n - k - 1);
    double spread = Math.sqrt(v1 + v2);
    double gap = Math.abs(m1 - m2);
    if (spread == 0) {
      return new double[] {gap == 0 ? 0 : Double.POSITIVE_INFINITY, gap};
    }
    return new double[] {Math.sqrt(2) * gap / spread, gap};
  }

  /** Two groups, separated beyond chance and at least {@code minGap} apart. */
  static boolean bimodal(double[] values, double minGap) {
    double[] split = split(values);
    return split != null && split[1] >= minGap
        && split[0] > (values.length >= 24 ? D_LARGE : D_SMALL);
  }

  private static double ss(double[] prefix, double[] prefixSq, int from, int to) {
    int n = to - from;
    double sum = prefix[to] - prefix[from];
    return Math.max(0, prefixSq[to] - prefixSq[from] - sum * sum / n);
  }
}
