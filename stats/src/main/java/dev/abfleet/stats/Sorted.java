package dev.abfleet.stats;

/** Searches in ascending arrays. */
final class Sorted {
  private Sorted() {}

  /** The first index whose value is not below {@code v} (the length when every value is). */
  static int lowerBound(double[] sorted, double v) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
