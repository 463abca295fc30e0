package dev.abfleet.stats.changepoint;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The split statistic: for a split at t of n values, the Mann-Whitney U of the first t values
 * against the rest, standardized to z = (U - t(n-t)/2) / sqrt(t(n-t)(n+1)/12). Computed for
 * every split from prefix sums of mid-ranks, so one scan costs O(n). Ranks make the statistic
 * blind to how far an outlier lies, only to where it lies; standardizing lets splits near the
 * ends compete with central ones.
 */
final class RankScan {
  private RankScan() {}

  /** Best split of the ranks: index (first value after the split) and its |z|. */
  record Best(int index, double z) {}

  /** Mid-ranks (1-based, ties averaged), as scipy.stats.rankdata(method="average"). */
  static double[] midRanks(double[] v) {
    int n = v.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(v[a], v[b]));
    double[] ranks = new double[n];
    int i = 0;
    while (i < n) {
      int j = i;
      while (j + 1 < n && v[order[j + 1]] == v[order[i]]) {
        j++;
      }
      double mid = (i + j) / 2.0 + 1.0;
      for (int k = i; k <= j; k++) {
        ranks[order[k]] = mid;
      }
      i = j + 1;
    }
    return ranks;
  }

  /** |z| at split t (values [0, t) vs [t, n)) of these ranks. */
  static double z(double[] ranks, int t) {
    int n = ranks.length;
    double sum = 0;
    for (int i = 0; i < t; i++) {
      sum += ranks[i];
    }
    return standardized(sum, t, n);
  }

  /** The split with the largest |z| among t in [minSegment, n - minSegment]; first on ties. */
  static Best best(double[] ranks, int minSegment) {
    int n = ranks.length;
    double prefix = 0;
    int bestIndex = -1;
    double bestZ = -1;
    for (int t = 1; t <= n - minSegment; t++) {
      prefix += ranks[t - 1];
      if (t < minSegment) {
        continue;
      }
      double z = standardized(prefix, t, n);
      if (z > bestZ + 1e-12) {
        bestZ = z;
        bestIndex = t;
      }
    }
    return new Best(bestIndex, bestZ);
  }

  /**
   * Permutation p-value of the maximum |z| over admissible splits: the share of random
   * orderings of the same ranks whose maximum reaches the observed one, counting the observed
   * ordering itself ((1 + hits) / (1 + permutations)).
   */
  static double permutationP(double[] ranks, int minSegment, double observed, int permutations,
      SplittableRandom random) {
    double[] shuffled = ranks.clone();
    int hits = 0;
    for (int b = 0; b < permutations; b++) {
      shuffle(shuffled, random);
      if (best(shuffled, minSegment).z() >= observed - 1e-9) {
        hits++;
      }
    }
    return (1.0 + hits) / (1.0 + permutations);
  }

  private static double standardized(double rankSum, int t, int n) {
    int m = n - t;
    double u = rankSum - t * (t + 1) / 2.0;
    double mean = t * (double) m / 2.0;
    double sd = Math.sqrt(t * (double) m * (n + 1) / 12.0);
    return Math.abs(u - mean) / sd;
  }

  private static void shuffle(double[] a, SplittableRandom random) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      double tmp = a[i];
      a[i] = a[j];
      a[j] = tmp;
    }
  }
}
