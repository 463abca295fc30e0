package dev.abfleet.stats;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Confidence interval and estimate of the centre of paired differences d by inverting the
 * {@link AdaptiveSignedRank} test: the interval holds every shift θ at which the test of
 * d - θ does not reject, so the interval and the p-value of the verdict come from one test.
 *
 * <p>The score cap is chosen again at every θ from |d - θ|, exactly as the test at 0 chooses
 * it from |d|, rather than once from the residuals around an estimate. Each test in the
 * family is then exact on its own (at the true centre θ0 the |d - θ0| carry no sign
 * information), so the set of accepted θ covers θ0 with probability at least 1 - alpha for
 * every continuous distribution symmetric about θ0; a cap fixed from the residuals would
 * depend on the signs of d - θ0 and lose that guarantee. The reported interval is the hull
 * of the accepted set (with an adaptive cap the set need not be convex), which covers at
 * least as often.
 *
 * <p>Between two consecutive distinct Walsh averages (d_i + d_j) / 2 the ranks and signs of
 * d - θ do not change, so the statistic for a given cap is constant on each such gap and
 * non-increasing in θ across gaps (bounded scores are non-decreasing). Each gap is judged at
 * its midpoint, with the cap chosen there; endpoints are Walsh averages, as in the Wilcoxon
 * interval, which this reproduces exactly when the cap is m everywhere. The tail weight can
 * cross a cut point inside a gap; judging the whole gap by its midpoint then moves the
 * boundary by less than one gap, which the coverage simulation does not resolve.
 */
final class AdaptiveInterval {
  private final double[] d;
  /** Distinct Walsh averages, ascending; gap k lies between walsh[k - 1] and walsh[k]. */
  private final double[] walsh;
  /** d has repeated values: their |d - θ| tie at every θ, so no cached untied distribution. */
  private final boolean tied;
  /** Cap chosen at each gap's midpoint; 0 until computed. */
  private final int[] caps;
  /** Null distributions by sorted doubled scores, for data with repeated values. */
  private final Map<String, double[]> tiedDistributions = new HashMap<>();

  private AdaptiveInterval(double[] d) {
    this.d = Arrays.stream(d).map(x -> x + 0.0).toArray(); // -0.0 becomes 0.0
    this.walsh = Arrays.stream(HodgesLehmann.walshAverages(d)).distinct().toArray();
    this.tied = Arrays.stream(d).distinct().count() < d.length;
    this.caps = new int[walsh.length + 1];
  }

  /** The inversion for these differences (zeros included: a zero is evidence of no shift). */
  static AdaptiveInterval of(double[] d) {
    return new AdaptiveInterval(d);
  }

  /**
   * Hull of the shifts not rejected at two-sided level alpha, as {low, high}; null when no
   * bounded interval exists at that level (too few pairs: 2^(1-n) > alpha).
   */
  double[] interval(double alpha) {
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
    for (int cap : candidateCaps()) {
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

  /**
   * The test's own estimate: the centre of the gaps where the test's p is largest (where the
   * centred statistic crosses 0). NaN for no data.
   */
  double estimate() {
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

  /** The caps the rule can choose for n values. */
  private TreeSet<Integer> candidateCaps() {
    int n = d.length;
    TreeSet<Integer> out = new TreeSet<>();
    out.add(AdaptiveSignedRank.cap(n, 0.0));
    out.add(AdaptiveSignedRank.cap(n, (AdaptiveSignedRank.NORMAL_TAILS
        + AdaptiveSignedRank.LAPLACE_TAILS) / 2));
    out.add(AdaptiveSignedRank.cap(n, Double.POSITIVE_INFINITY));
    return out;
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
