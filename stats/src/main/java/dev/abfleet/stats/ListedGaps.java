package dev.abfleet.stats;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link AdaptiveInterval} by listing every distinct Walsh average: the engine's inversion up
 * to {@link AdaptiveSignedRank#EXACT_MAX_N} differences (at most 5,050 averages), where the
 * p-values are exact and, with repeated values, not monotone from gap to gap, so that gaps
 * are scanned one by one. Correct at any n but O(n^2) in memory; {@link ImplicitGaps} finds
 * the same gaps above the exact range.
 */
final class ListedGaps implements AdaptiveInterval {
  private final double[] d;
  /** Distinct Walsh averages, ascending; gap k lies between walsh[k - 1] and walsh[k]. */
  private final double[] walsh;
  /** d has repeated values: their |d - θ| tie at every θ, so no cached untied distribution. */
  private final boolean tied;
  /** Cap chosen at each gap's midpoint; 0 until computed. */
  private final int[] caps;
  /** Null distributions by sorted doubled scores, for data with repeated values. */
  private final Map<String, double[]> tiedDistributions = new HashMap<>();

  ListedGaps(double[] d) {
    this.d = Arrays.stream(d).map(x -> x + 0.0).toArray(); // -0.0 becomes 0.0
    this.walsh = Arrays.stream(HodgesLehmann.walshAverages(d)).distinct().toArray();
    this.tied = Arrays.stream(d).distinct().count() < d.length;
    this.caps = new int[walsh.length + 1];
  }

  @Override
  public double[] interval(double alpha) {
    int gaps = walsh.length + 1;
    if (d.length < 1) {
      return null;
    }
    if (walsh.length == 1) {
      // all d equal: only θ = d itself is never rejected; Wilcoxon's [W(k), W(N-k+1)] too
      return accepted(0, d.length, alpha) ? null : new double[] {walsh[0], walsh[0]};
    }
    // per cap, the gaps its test accepts form one run [first, last] (the statistic is
    // monotone in θ); a gap is accepted when the cap chosen there accepts it
    Map<Integer, int[]> runs = new HashMap<>();
    int from = gaps;
    int to = -1;
    for (int cap : AdaptiveSignedRank.candidateCaps(d.length)) {
      int[] run = {firstAccepted(cap, alpha), lastAccepted(cap, alpha)};
      runs.put(cap, run);
      if (run[0] <= run[1]) {
        from = Math.min(from, run[0]);
        to = Math.max(to, run[1]);
      }
    }
    int low = from;
    while (low <= to && !acceptedByOwnCap(low, runs, alpha)) {
      low++;
    }
    int high = to;
    while (high >= low && !acceptedByOwnCap(high, runs, alpha)) {
      high--;
    }
    if (low > high || low == 0 || high == gaps - 1) {
      return null; // nothing accepted, or accepted beyond every Walsh average: unbounded
    }
    return new double[] {walsh[low - 1], walsh[high]};
  }

  @Override
  public double estimate() {
    if (d.length == 0) {
      return Double.NaN;
    }
    double best = -1;
    int first = 0;
    int last = 0;
    for (int k = 0; k <= walsh.length; k++) {
      double p = pAt(k, capAt(k))[0];
      if (p > best * (1 + AdaptiveSignedRank.TOLERANCE)) {
        best = p;
        first = k;
        last = k;
      } else if (p >= best * (1 - AdaptiveSignedRank.TOLERANCE)) {
        last = k;
      }
    }
    double lo = first == 0 ? walsh[0] : walsh[first - 1];
    double hi = last == walsh.length ? walsh[walsh.length - 1] : walsh[last];
    return (lo + hi) / 2.0;
  }

  /** First gap not rejected for a too-large statistic with this cap (monotone in k). */
  private int firstAccepted(int cap, double alpha) {
    if (tied) { // the null distribution changes from gap to gap: no bisection
      int k = 0;
      while (k <= walsh.length && !accepted(k, cap, alpha)) {
        k++;
      }
      return k;
    }
    int lo = 0;
    int hi = walsh.length + 1; // answer in [lo, hi]; hi = none
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      double[] r = pAt(mid, cap);
      boolean ok = r[1] <= 0 || r[0] > alpha * (1 + AdaptiveSignedRank.TOLERANCE);
      if (ok) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** Last gap not rejected for a too-small statistic with this cap (monotone in k). */
  private int lastAccepted(int cap, double alpha) {
    if (tied) {
      int k = walsh.length;
      while (k >= 0 && !accepted(k, cap, alpha)) {
        k--;
      }
      return k;
    }
    int lo = -1; // answer in [lo, hi]; lo = none
    int hi = walsh.length;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      double[] r = pAt(mid, cap);
      boolean ok = r[1] >= 0 || r[0] > alpha * (1 + AdaptiveSignedRank.TOLERANCE);
      if (ok) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private boolean acceptedByOwnCap(int k, Map<Integer, int[]> runs, double alpha) {
    int cap = capAt(k);
    int[] run = runs.get(cap);
    return run[0] <= k && k <= run[1] && (!tied || accepted(k, cap, alpha));
  }

  private boolean accepted(int k, int cap, double alpha) {
    return pAt(k, cap)[0] > alpha * (1 + AdaptiveSignedRank.TOLERANCE);
  }

  private double theta(int k) {
    if (k == 0) {
      return walsh[0] - 1.0; // any point left of every Walsh average: all d - θ > 0
    }
    if (k == walsh.length) {
      return walsh[walsh.length - 1] + 1.0;
    }
    return (walsh[k - 1] + walsh[k]) / 2.0;
  }

  private double[] shifted(int k) {
    double theta = theta(k);
    double[] x = new double[d.length];
    for (int i = 0; i < d.length; i++) {
      x[i] = d[i] - theta;
    }
    return x;
  }

  /** Cap the rule picks at gap k, from |d - θ_k| alone. */
  private int capAt(int k) {
    if (caps[k] == 0) {
      caps[k] = AdaptiveSignedRank.cap(d.length, AdaptiveSignedRank.tailWeight(shifted(k)));
    }
    return caps[k];
  }

  /**
   * Test of centre θ_k with this cap: {two-sided p, sign of (2S - sum of scores)}, the
   * second saying on which side of its null centre the statistic lies.
   */
  private double[] pAt(int k, int cap) {
    double[] x = shifted(k);
    int[] scores2 = AdaptiveSignedRank.scores2(SignedRank.doubledMidRanks(x), cap);
    long s = 0;
    long total = 0;
    for (int i = 0; i < x.length; i++) {
      total += scores2[i];
      if (x[i] > 0) {
        s += scores2[i];
      }
    }
    double p;
    if (!tied) {
      p = AdaptiveSignedRank.pUntied(x.length, cap, s);
    } else if (x.length > AdaptiveSignedRank.EXACT_MAX_N) {
      p = AdaptiveSignedRank.p(scores2, s);
    } else {
      int[] sorted = scores2.clone();
      Arrays.sort(sorted); // mid-ranks of a tied group depend on where the group sits
      double[] dist = tiedDistributions.computeIfAbsent(Arrays.toString(sorted),
          key -> SignedRank.nullDistribution(sorted));
      p = ExactTails.twoSided(dist, s);
    }
    return new double[] {p, Math.signum(2 * s - total)};
  }
}
