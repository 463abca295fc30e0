package dev.abfleet.stats;

import java.util.function.Predicate;

/**
 * The gaps between consecutive distinct Walsh averages of a sample, in order, without listing
 * the averages ({@link WalshAverages}: each step O(n)). The first gap lies left of every
 * average, the last right of every one. The adaptive inversion judges each gap at one point
 * inside it ({@link Gap#theta}), and finds where a judgement that switches once along the
 * gaps switches by bisection on θ: about log2 of the number of averages steps.
 */
final class WalshGaps {
  /**
   * The open interval between consecutive distinct Walsh averages lo &lt; hi; lo = -infinity
   * for the first gap, hi = +infinity for the last. Gaps are ordered by lo.
   */
  record Gap(double lo, double hi) {
    /** The point the gap is judged at, as {@link ListedGaps} chooses it. */
    double theta() {
      if (lo == Double.NEGATIVE_INFINITY) {
        return hi - 1.0; // any point left of every Walsh average: all d - θ > 0
      }
      if (hi == Double.POSITIVE_INFINITY) {
        return lo + 1.0;
      }
      return (lo + hi) / 2.0;
    }

    boolean before(Gap other) {
      return lo < other.lo;
    }

    boolean isFirst() {
      return lo == Double.NEGATIVE_INFINITY;
    }

    boolean isLast() {
      return hi == Double.POSITIVE_INFINITY;
    }
  }

  private final WalshAverages walsh;

  WalshGaps(WalshAverages walsh) {
    this.walsh = walsh;
  }

  /** The smallest Walsh average. */
  double min() {
    return walsh.min();
  }

  /** The largest Walsh average. */
  double max() {
    return walsh.max();
  }

  Gap first() {
    return new Gap(Double.NEGATIVE_INFINITY, walsh.min());
  }

  Gap last() {
    return new Gap(walsh.max(), Double.POSITIVE_INFINITY);
  }

  /** The gap holding x, or starting at x when x is a Walsh average. */
  Gap at(double x) {
    double[] around = walsh.around(x);
    return new Gap(around[0], around[1]);
  }

  /** The gap after g; null after the last. */
  Gap next(Gap g) {
    return g.isLast() ? null : at(g.hi());
  }

  /** The gap before g; null before the first. */
  Gap previous(Gap g) {
    return g.isFirst() ? null : new Gap(walsh.below(g.lo()), g.lo());
  }

  /** The first gap after g judged at a point beyond x; null if none. */
  Gap firstJudgedBeyond(Gap g, double x) {
    Gap out = at(x);
    if (!(out.theta() > x)) {
      out = next(out);
    }
    return out != null && g.before(out) ? out : next(g);
  }

  /**
   * The first gap at which {@code holds} is true, for a judgement that stays true once true;
   * null if it is true nowhere. Bisects θ between Walsh averages lo &lt;= hi, the answer
   * starting at one of them and {@code holds} true at the gap starting at hi.
   */
  Gap firstWhere(Predicate<Gap> holds) {
    if (holds.test(first())) {
      return first();
    }
    if (!holds.test(last())) {
      return null;
    }
    double lo = walsh.min();
    double hi = walsh.max();
    for (int step = 0; lo < hi; step++) {
      // halve the value range; should averages crowd near 0, halve the bit patterns instead
      double mid = step < 64 ? lo / 2 + hi / 2 : midBits(lo, hi);
      Gap g = at(mid < hi ? mid : lo);
      if (holds.test(g)) {
        hi = g.lo();
      } else {
        lo = g.hi();
      }
    }
    return at(lo);
  }

  /** The last gap at which {@code holds} is true, for a judgement that stays false once false. */
  Gap lastWhere(Predicate<Gap> holds) {
    Gap fails = firstWhere(holds.negate());
    return fails == null ? last() : previous(fails);
  }

  static Gap later(Gap a, Gap b) {
    return a.before(b) ? b : a;
  }

  static Gap earlier(Gap a, Gap b) {
    return a.before(b) ? a : b;
  }

  /** The double halfway between lo and hi in the order of their bit patterns. */
  private static double midBits(double lo, double hi) {
    long a = bits(lo);
    long b = bits(hi);
    long mid = (a & b) + ((a ^ b) >> 1);
    return mid >= 0 ? Double.longBitsToDouble(mid) : -Double.longBitsToDouble(-mid);
  }

  private static long bits(double x) {
    return x >= 0 ? Double.doubleToRawLongBits(x + 0.0) : -Double.doubleToRawLongBits(-x);
  }
}
