package dev.abfleet.stats;

import java.util.Arrays;

/**
 * All n1 n2 differences y_j - x_i of two samples (two-sample Hodges-Lehmann), never listed.
 * With both samples sorted, y_j - x_i falls as i grows, and the first i with y_j - x_i at
 * most t does not fall as j grows, so queries are O(n1 + n2).
 */
final class ShiftDifferences implements PairwiseValues {
  private final double[] x;
  private final double[] y;

  /** x and y in any order, neither empty. */
  ShiftDifferences(double[] x, double[] y) {
    this.x = x.clone();
    this.y = y.clone();
    Arrays.sort(this.x);
    Arrays.sort(this.y);
  }

  @Override
  public long size() {
    return (long) x.length * y.length;
  }

  @Override
  public double min() {
    return y[0] - x[x.length - 1];
  }

  @Override
  public double max() {
    return y[y.length - 1] - x[0];
  }

  @Override
  public long countAtMost(double t) {
    long total = 0;
    int i = 0;
    for (double yj : y) {
      while (i < x.length && yj - x[i] > t) {
        i++;
      }
      total += x.length - i;
    }
    return total;
  }

  @Override
  public double above(double t) {
    double best = Double.POSITIVE_INFINITY;
    int i = 0;
    for (double yj : y) {
      while (i < x.length && yj - x[i] > t) {
        i++;
      }
      if (i > 0 && yj - x[i - 1] < best) {
        best = yj - x[i - 1]; // the smallest of this row's differences above t
      }
    }
    return best;
  }
}
