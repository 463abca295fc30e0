package dev.abfleet.stats;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The one-sample Hodges-Lehmann estimate of resamples of a fixed sample d, without building
 * and selecting each resample's Walsh averages. A resample that takes d_i c_i times has, for
 * i < j, c_i c_j Walsh averages equal to (d_i + d_j) / 2 and c_i (c_i + 1) / 2 equal to d_i;
 * its median Walsh average is therefore a weighted median over the n(n+1)/2 Walsh averages of
 * d, sorted once. Same value, bit for bit, as the median of the resample's own Walsh averages
 * ({@link HodgesLehmann#estimate}), at O(n^2) per resample instead of O(m^2) plus a selection.
 *
 * <p>Above {@link #LISTED_MAX_N} values the n(n+1)/2 averages are not listed: each resample's
 * weighted median is selected from d sorted once ({@link WalshAverages} with the resample's
 * counts as multiplicities), O(n) memory and O(n) per counting pass. Same value again.
 */
final class WalshResampler {
  /** Largest sample whose Walsh averages are listed (100 values: 5,050 averages). */
  static final int LISTED_MAX_N = 100;

  /** Walsh averages of d, ascending; null above LISTED_MAX_N. */
  private final double[] values;
  /** For values[k] = (d_i + d_j) / 2, i <= j: i and j. */
  private final int[] first;
  private final int[] second;
  /** Above LISTED_MAX_N: d ascending, and the index in d of each sorted value. */
  private final double[] sorted;
  private final int[] order;

  WalshResampler(double[] d) {
    int n = d.length;
    if (n > LISTED_MAX_N) {
      order = IntStream.range(0, n).boxed()
          .sorted((a, b) -> Double.compare(d[a], d[b])).mapToInt(Integer::intValue).toArray();
      sorted = Arrays.stream(order).mapToDouble(i -> d[i]).toArray();
      values = null;
      first = null;
      second = null;
      return;
    }
    sorted = null;
    order = null;
    int big = n * (n + 1) / 2;
    values = new double[big];
    int at = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i; j < n; j++) {
        values[at++] = (d[i] + d[j]) / 2.0;
      }
    }
    Arrays.sort(values);
    // place each (i, j) at the first free slot of its value: equal values share a run
    first = new int[big];
    second = new int[big];
    int[] taken = new int[big];
    for (int i = 0; i < n; i++) {
      for (int j = i; j < n; j++) {
        int start = Sorted.lowerBound(values, (d[i] + d[j]) / 2.0);
        int slot = start + taken[start]++;
        first[slot] = i;
        second[slot] = j;
      }
    }
  }

  /**
   * Hodges-Lehmann estimate of the resample that takes d_i {@code counts[i]} times, m values
   * in all (m = sum of counts); NaN when m is 0.
   */
  double estimate(int[] counts, int m) {
    long total = (long) m * (m + 1) / 2;
    if (total == 0) {
      return Double.NaN;
    }
    if (values == null) {
      double[] taken = new double[sorted.length];
      long[] times = new long[sorted.length];
      int k = 0;
      for (int i = 0; i < sorted.length; i++) {
        if (counts[order[i]] > 0) {
          taken[k] = sorted[i];
          times[k++] = counts[order[i]];
        }
      }
      return new WalshAverages(taken, times, k).median();
    }
    // 0-based ranks of the middle Walsh average(s) of the resample
    long lowRank = (total - 1) / 2;
    long highRank = total / 2;
    long below = 0;
    int k = 0;
    while (true) {
      below += weight(counts, k);
      if (below > lowRank) {
        break;
      }
      k++;
    }
    double low = values[k];
    while (below <= highRank) {
      k++;
      below += weight(counts, k);
    }
    return (low + values[k]) / 2.0;
  }

  /** How many Walsh averages of the resample equal values[k] through this (i, j). */
  private long weight(int[] counts, int k) {
    long ci = counts[first[k]];
    return first[k] == second[k] ? ci * (ci + 1) / 2 : ci * counts[second[k]];
  }
}
