package dev.abfleet.stats;

/**
 * A multiset of values formed from pairs of sample values (Walsh averages, two-sample shift
 * differences), in sorted order without listing them: each implementation counts the values
 * at or below x, and finds the next value above x, in O(n) by two pointers over its sorted
 * samples. Selection by bisection on top of that costs O(n) per step, about log2(n^2) steps,
 * and O(n) memory, where listing and sorting costs O(n^2 log n) time and O(n^2) memory.
 *
 * <p>The values are the same floating-point expressions the listing computes (e.g. {@code (a +
 * b) / 2.0}), so a selected value equals the listed one bit for bit (a zero's sign aside):
 * rounding is monotone, so each row of the implicit matrix stays sorted.
 */
interface PairwiseValues {
  /** Steps in a row that leave the bracket's count unchanged before kth steps to a value. */
  int STALLED_STEPS = 2;

  /** Number of values, with multiplicity. */
  long size();

  /** How many values (with multiplicity) are at most x. */
  long countAtMost(double x);

  /** The smallest value greater than x; +infinity when there is none. */
  double above(double x);

  /** The smallest value; the set is not empty. */
  double min();

  /** The largest value. */
  double max();

  /**
   * The r-th smallest value (1-based, 1 &lt;= r &lt;= size). Bisects the value range (lo, hi]
   * keeping count(lo) &lt; r &lt;= count(hi): about log2(size) counting passes when the values
   * have no clusters. When steps stop changing the number of values inside the bracket (it
   * holds one heavily repeated value, or an empty stretch), or one value is left, it moves lo
   * to the next value instead: a repeated value ends the search at once rather than after
   * bisecting down to adjacent doubles, and the answer is exact whatever the doubles.
   */
  default double kth(long r) {
    double lo = min();
    long countLo = countAtMost(lo);
    if (countLo >= r) {
      return lo;
    }
    double hi = max();
    long countHi = size();
    long insideBefore = -1;
    int stalled = 0;
    while (true) {
      long inside = countHi - countLo;
      stalled = inside == insideBefore ? stalled + 1 : 0;
      insideBefore = inside;
      double mid = lo / 2 + hi / 2;
      if (inside <= 1 || stalled >= STALLED_STEPS || !(mid > lo && mid < hi)) {
        double next = above(lo);
        long count = countAtMost(next);
        if (count >= r) {
          return next;
        }
        lo = next;
        countLo = count;
        continue;
      }
      long count = countAtMost(mid);
      if (count >= r) {
        hi = mid;
        countHi = count;
      } else {
        lo = mid;
        countLo = count;
      }
    }
  }

  /** The median (mean of the two middle values for an even count), as of a sorted listing. */
  default double median() {
    long n = size();
    long lower = (n + 1) / 2;
    double low = kth(lower);
    if (n % 2 == 1) {
      return low;
    }
    double high = countAtMost(low) > lower ? low : above(low);
    return (low + high) / 2.0;
  }
}
