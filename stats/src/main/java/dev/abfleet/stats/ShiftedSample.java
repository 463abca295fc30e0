package dev.abfleet.stats;

import java.util.Arrays;

/**
 * The differences shifted by θ, d - θ, ordered by |d - θ| with one O(n) merge of the sorted
 * differences on either side of θ (no sort per θ), and what the adaptive signed-rank test of
 * centre θ needs: the doubled mid-ranks, the statistic for a cap, and the cap the rule picks.
 * Same numbers as {@link AdaptiveSignedRank#tailWeight} and {@link SignedRank#doubledMidRanks}
 * applied to d - θ.
 */
final class ShiftedSample {
  /** Relative distance {@link #stride} keeps from a cut point of Q: far above its rounding. */
  static final double MARGIN = 1e-9;

  final double theta;
  private final double[] inPairOrder;
  /** |d - θ| ascending, and whether each d - θ is &gt; 0. */
  private final double[] abs;
  private final boolean[] positive;
  /** Some |d - θ| are equal: the ranks are mid-ranks, not 1..n. */
  private final boolean ties;
  /** Doubled mid-ranks of abs; computed when asked for. */
  private int[] ranks2;
  /** Mean of the largest tenth of |d - θ|, and mean of |d - θ|: Hogg's Q = a / b. */
  private double a = Double.NaN;
  private double b;

  /**
   * @param sorted the differences, ascending
   * @param inPairOrder the same differences in pair order (Q's mean is summed in that order)
   */
  ShiftedSample(double[] sorted, double[] inPairOrder, double theta) {
    this.theta = theta;
    this.inPairOrder = inPairOrder;
    int n = sorted.length;
    abs = new double[n];
    positive = new boolean[n];
    // sorted[0, right) - θ <= 0, read downwards; sorted[right, n) - θ > 0, read upwards.
    // θ - v is exactly |v - θ| for v <= θ (subtraction rounds symmetrically)
    int right = firstAbove(sorted, theta);
    int left = right - 1;
    int k = 0;
    while (left >= 0 && right < n) {
      double l = theta - sorted[left];
      double r = sorted[right] - theta;
      if (r < l) {
        abs[k] = r;
        positive[k++] = true;
        right++;
      } else {
        abs[k++] = l;
        left--;
      }
    }
    while (left >= 0) {
      abs[k++] = theta - sorted[left--];
    }
    while (right < n) {
      abs[k] = sorted[right++] - theta;
      positive[k++] = true;
    }
    boolean equal = false;
    for (int i = 1; i < n && !equal; i++) {
      equal = abs[i] == abs[i - 1];
    }
    ties = equal;
  }

  /** Doubled mid-ranks of |d - θ|, in ascending order of |d - θ|. */
  int[] ranks2() {
    if (ranks2 == null) {
      int n = abs.length;
      ranks2 = new int[n];
      for (int i = 0; i < n; ) {
        int j = i;
        while (j + 1 < n && abs[j + 1] == abs[i]) {
          j++;
        }
        Arrays.fill(ranks2, i, j + 1, (i + 1) + (j + 1));
        i = j + 1;
      }
    }
    return ranks2;
  }

  /** The doubled statistic: sum of min(2R, 2 cap) over d - θ &gt; 0. */
  long statistic(int cap) {
    long s = 0;
    if (ties) {
      int[] r2 = ranks2();
      for (int k = 0; k < r2.length; k++) {
        s += positive[k] ? Math.min(r2[k], 2 * cap) : 0;
      }
      return s;
    }
    for (int k = 0; k < positive.length; k++) {
      s += positive[k] ? Math.min(2 * (k + 1), 2 * cap) : 0; // untied: R = k + 1
    }
    return s;
  }

  /** The cap the rule picks here, from Hogg's Q of d - θ. */
  int cap() {
    return AdaptiveSignedRank.cap(abs.length, tailWeight());
  }

  /**
   * How far θ can move with the cap certain not to change. Q = a / b with a the mean of the
   * largest tenth of |d - θ| and b the mean of |d - θ|, both 1-Lipschitz in θ, so within δ Q
   * stays in [(a - δ) / (b + δ), (a + δ) / (b - δ)]; δ keeps that a relative {@link #MARGIN}
   * inside Q's band. 0 when Q is that close to a cut point.
   */
  double stride() {
    double q = tailWeight();
    double low = q <= AdaptiveSignedRank.NORMAL_TAILS ? Double.NaN
        : q <= AdaptiveSignedRank.LAPLACE_TAILS ? AdaptiveSignedRank.NORMAL_TAILS
        : AdaptiveSignedRank.LAPLACE_TAILS;
    double high = q <= AdaptiveSignedRank.NORMAL_TAILS ? AdaptiveSignedRank.NORMAL_TAILS
        : q <= AdaptiveSignedRank.LAPLACE_TAILS ? AdaptiveSignedRank.LAPLACE_TAILS
        : Double.NaN;
    double stride = Double.POSITIVE_INFINITY;
    if (!Double.isNaN(high)) { // (a + δ) / (b - δ) <= high
      double h = high * (1 - MARGIN);
      stride = Math.min(stride, (h * b - a) / (1 + h));
    }
    if (!Double.isNaN(low)) { // (a - δ) / (b + δ) > low
      double l = low * (1 + MARGIN);
      stride = Math.min(stride, (a - l * b) / (1 + l));
    }
    return stride > 0 ? stride : 0; // NaN (no spread) too
  }

  /** Hogg's Q as {@link AdaptiveSignedRank#tailWeight} computes it for d - θ. */
  private double tailWeight() {
    if (Double.isNaN(a)) {
      int m = abs.length;
      double g = 0.1 * m;
      double top = 0;
      double left = g;
      for (int i = m - 1; i >= 0 && left > 0; i--) {
        double w = Math.min(1.0, left);
        top += w * abs[i];
        left -= w;
      }
      double sum = 0;
      for (double x : inPairOrder) {
        sum += Math.abs(x - theta);
      }
      a = top / g;
      b = sum / m;
    }
    return a / b;
  }

  /** Index of the first sorted value with value - θ &gt; 0 (n if none). */
  private static int firstAbove(double[] sorted, double theta) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] - theta > 0) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
