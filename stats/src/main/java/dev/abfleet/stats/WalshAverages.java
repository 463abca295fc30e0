package dev.abfleet.stats;

import java.util.Arrays;

/**
 * The Walsh averages (x_i + x_j) / 2, i &lt;= j, of a sample given as sorted values with
 * multiplicities: a value taken c times contributes c (c + 1) / 2 averages equal to itself
 * and c c' averages with each other value taken c' times, so that one instance can stand for
 * a bootstrap resample ({@link WalshResampler}). Queries are O(k) for k values: for a fixed i
 * the averages grow with j, and the last j with an average at most x does not grow with i.
 */
final class WalshAverages implements PairwiseValues {
  /** values[0, k) ascending, each taken counts[i] &gt; 0 times. */
  private final double[] values;
  private final long[] counts;
  private final int k;
  /** prefix[j] = counts[0] + ... + counts[j - 1]. */
  private final long[] prefix;
  private final long size;

  /** The first k of values (ascending) taken counts[i] &gt; 0 times each; arrays not copied. */
  WalshAverages(double[] values, long[] counts, int k) {
    this.values = values;
    this.counts = counts;
    this.k = k;
    this.prefix = new long[k + 1];
    for (int j = 0; j < k; j++) {
      prefix[j + 1] = prefix[j] + counts[j];
    }
    long m = prefix[k];
    this.size = m * (m + 1) / 2;
  }

  /** The Walsh averages of x (any order, not empty). */
  static WalshAverages of(double[] x) {
    double[] sorted = x.clone();
    Arrays.sort(sorted);
    long[] ones = new long[sorted.length];
    Arrays.fill(ones, 1);
    return new WalshAverages(sorted, ones, sorted.length);
  }

  /**
   * The Walsh averages of the sample that takes sorted[i] counts[i] times (sorted ascending,
   * counts &gt;= 0, at least one &gt; 0).
   */
  static WalshAverages ofSorted(double[] sorted, long[] counts) {
    double[] v = new double[sorted.length];
    long[] c = new long[sorted.length];
    int k = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (counts[i] > 0) {
        v[k] = sorted[i];
        c[k++] = counts[i];
      }
    }
    return new WalshAverages(v, c, k);
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public double min() {
    return values[0];
  }

  @Override
  public double max() {
    return values[k - 1];
  }

  @Override
  public long countAtMost(double x) {
    long total = 0;
    int j = k - 1;
    for (int i = 0; i < k; i++) {
      while (j >= i && average(i, j) > x) {
        j--;
      }
      if (j < i) {
        break; // the diagonal (x_i + x_i) / 2 = x_i already exceeds x, and x_i only grows
      }
      long c = counts[i];
      total += c * (c + 1) / 2 + c * (prefix[j + 1] - prefix[i + 1]);
    }
    return total;
  }

  @Override
  public double above(double x) {
    double best = Double.POSITIVE_INFINITY;
    int j = k - 1;
    for (int i = 0; i < k; i++) {
      j = Math.max(j, i);
      while (j > i && average(i, j - 1) > x) {
        j--;
      }
      double a = average(i, j);
      if (a > x && a < best) {
        best = a;
      }
    }
    return best;
  }

  /**
   * {the largest average at most x, the smallest above x}, -infinity / +infinity when there is
   * none: the two Walsh averages around x, in one pass.
   */
  double[] around(double x) {
    double atMost = Double.NEGATIVE_INFINITY;
    double above = Double.POSITIVE_INFINITY;
    int j = k - 1;
    for (int i = 0; i < k; i++) {
      while (j >= i && average(i, j) > x) {
        j--;
      }
      if (j + 1 < k) {
        above = Math.min(above, average(i, Math.max(i, j + 1)));
      }
      if (j < i) {
        break; // later rows start above their diagonal, which only grows
      }
      atMost = Math.max(atMost, average(i, j));
    }
    return new double[] {atMost, above};
  }

  /** The largest average at most x; -infinity when there is none. */
  double atMost(double x) {
    double best = Double.NEGATIVE_INFINITY;
    int j = k - 1;
    for (int i = 0; i < k; i++) {
      while (j >= i && average(i, j) > x) {
        j--;
      }
      if (j < i) {
        break;
      }
      best = Math.max(best, average(i, j));
    }
    return best;
  }

  /** The largest average below x; -infinity when there is none. */
  double below(double x) {
    double best = Double.NEGATIVE_INFINITY;
    int j = k - 1;
    for (int i = 0; i < k; i++) {
      while (j >= i && !(average(i, j) < x)) {
        j--;
      }
      if (j < i) {
        break;
      }
      best = Math.max(best, average(i, j));
    }
    return best;
  }

  private double average(int i, int j) {
    return (values[i] + values[j]) / 2.0;
  }
}
