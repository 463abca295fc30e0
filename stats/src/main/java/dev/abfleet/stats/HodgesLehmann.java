package dev.abfleet.stats;

import java.util.Arrays;

/**
 * One-sample Hodges-Lehmann estimate of the centre of paired differences and its confidence
 * interval by inverting the signed-rank test (the method of R's {@code wilcox.test(conf.int =
 * TRUE)}): the interval is [W(k), W(N-k+1)] over the sorted Walsh averages.
 *
 * <p>Both use every usable pair, zero differences included (a zero is evidence of no shift;
 * dropping it, as the test at shift 0 does, would make "all pairs equal" have no estimate).
 * k comes from the untied signed-rank distribution (as R does for its exact interval): exact
 * ties among log ratios of measured values are rare, and the p-value, which is exact with
 * ties, must agree before a difference counts as significant.
 *
 * <p>The engine selects order statistics without listing the averages ({@link WalshAverages},
 * {@link ShiftDifferences}): O(n) memory and O(n log n) time, the same values bit for bit.
 * The listing methods here are the definitions, for small samples and tests.
 */
final class HodgesLehmann {
  private HodgesLehmann() {}

  /** Median of the Walsh averages of d, without listing them; NaN when d is empty. */
  static double walshMedian(double[] d) {
    return d.length == 0 ? Double.NaN : WalshAverages.of(d).median();
  }

  /** Median of all y_j - x_i, without listing them; NaN when either sample is empty. */
  static double shiftMedian(double[] x, double[] y) {
    return x.length == 0 || y.length == 0 ? Double.NaN : new ShiftDifferences(x, y).median();
  }

  /**
   * Two-sample interval [D(k), D(n1 n2 - k + 1)] at level 1 - alpha, selected without listing
   * the differences; null if none exists at that level.
   */
  static double[] shiftInterval(double[] x, double[] y, double alpha) {
    long k = MannWhitney.intervalIndex(x.length, y.length, alpha);
    if (k < 1) {
      return null;
    }
    ShiftDifferences diffs = new ShiftDifferences(x, y);
    return new double[] {diffs.kth(k), diffs.kth(diffs.size() - k + 1)};
  }

  /**
   * All (d_i + d_j) / 2 with i <= j, sorted ascending; n(n+1)/2 values, so only for small n
   * (below 65,536: an array cannot hold more).
   */
  static double[] walshAverages(double[] d) {
    int n = d.length;
    double[] w = new double[Math.toIntExact((long) n * (n + 1) / 2)];
    int at = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i; j < n; j++) {
        w[at++] = (d[i] + d[j]) / 2.0;
      }
    }
    Arrays.sort(w);
    return w;
  }

  /** Median of the sorted Walsh averages; NaN when there are none. */
  static double estimate(double[] sortedWalsh) {
    int m = sortedWalsh.length;
    if (m == 0) {
      return Double.NaN;
    }
    return m % 2 == 1
        ? sortedWalsh[m / 2]
        : (sortedWalsh[m / 2 - 1] + sortedWalsh[m / 2]) / 2.0;
  }

  /**
   * Two-sided interval at level 1 - alpha for the centre of the n differences whose sorted
   * Walsh averages are given; null when n is too small for any interval at that level.
   */
  static double[] interval(double[] sortedWalsh, int n, double alpha) {
    long k = SignedRank.intervalIndex(n, alpha);
    if (k < 1) {
      return null;
    }
    int big = sortedWalsh.length;
    return new double[] {sortedWalsh[(int) k - 1], sortedWalsh[big - (int) k]};
  }

  /** All y_j - x_i, sorted ascending; n1 n2 values (two-sample Hodges-Lehmann), small n only. */
  static double[] shiftDifferences(double[] x, double[] y) {
    double[] d = new double[Math.multiplyExact(x.length, y.length)];
    int at = 0;
    for (double xi : x) {
      for (double yj : y) {
        d[at++] = yj - xi;
      }
    }
    Arrays.sort(d);
    return d;
  }

  /** Two-sample interval at level 1 - alpha over sorted shift differences; null if none. */
  static double[] shiftInterval(double[] sortedDiffs, int n1, int n2, double alpha) {
    long k = MannWhitney.intervalIndex(n1, n2, alpha);
    if (k < 1) {
      return null;
    }
    return new double[] {sortedDiffs[(int) k - 1], sortedDiffs[sortedDiffs.length - (int) k]};
  }

  /** Smallest n for which {@link #interval} exists at level 1 - alpha. */
  static int minPairsForInterval(double alpha) {
    int n = 1;
    while (SignedRank.intervalIndex(n, alpha) < 1 && n < 10_000) {
      n++;
    }
    return n;
  }
}
