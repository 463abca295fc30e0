package dev.abfleet.stats;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * Signed-rank test of "the paired differences are symmetric about 0" with bounded scores
 * chosen adaptively from the |d| alone; two-sided. This is the paired test of the verdict
 * engine ({@link PairedEvidence}); {@link SignedRank} is the plain Wilcoxon test it reduces to
 * when the |d| look no heavier-tailed than a normal sample.
 *
 * <p><b>Statistic.</b> S = sum over d_i &gt; 0 of a(R_i), where R_i is the (mid)rank of
 * |d_i| among the non-zero differences and a(r) = min(r, c). Zero differences are dropped
 * first, as {@link SignedRank} does (Wilcoxon's method).
 *
 * <p><b>Score rule</b> (fixed in advance; it sees only the |d|). The tail weight of the
 * symmetrised sample {+|d_i|, -|d_i|} is Hogg's (1974) Q = (U.05 - L.05) / (U.5 - L.5), U_p
 * and L_p the means of its largest and smallest fractions p; for the symmetrised sample Q =
 * (mean of the largest 10% of |d|) / (mean of |d|). Population values: 2.58 at the normal,
 * 3.30 at the Laplace. With m non-zero differences:
 * <ul>
 *   <li>Q &le; 2.6 (normal or lighter tails): c = m, the Wilcoxon scores, the locally most
 *       powerful rank scores at the logistic and 95% efficient at the normal;</li>
 *   <li>2.6 &lt; Q &le; 3.2 (between the normal and the Laplace): c = ceil(3m/4), the largest
 *       quarter of |d| all get the same score;</li>
 *   <li>Q &gt; 3.2 (Laplace or heavier): c = ceil(m/2), the largest half share one score, half
 *       way from Wilcoxon to the sign test (the locally most powerful test at the Laplace).</li>
 * </ul>
 * Bounded scores keep a few far-out pairs (a slow boot on one side) from carrying the most
 * weight while their sign says which side had the slow boot; with light tails nothing is
 * lost because the rule falls back to Wilcoxon. The cut points 2.6 and 3.2 are Hogg's.
 *
 * <p><b>Exactness.</b> Under H0 the signs are independent of the |d| and fair, and the score
 * vector is a function of the |d| only, so conditional on the |d| the sign-flip distribution
 * of S is exact whatever c the rule picks. Up to {@link #EXACT_MAX_N} non-zero differences it
 * is computed exactly by dynamic programming over doubled (integer) scores; above, by the
 * normal approximation with the exact conditional mean and variance and a continuity
 * correction of half a lattice step. The two-sided p is twice the smaller tail, capped at 1.
 */
final class AdaptiveSignedRank {
  /** Largest number of non-zero differences with an exact p (DP cost about m^3). */
  static final int EXACT_MAX_N = 100;
  /** Hogg's cut points of Q: up to the normal (2.58), and up to the Laplace (3.30). */
  static final double NORMAL_TAILS = 2.6;
  static final double LAPLACE_TAILS = 3.2;
  /** p-values within this relative distance above alpha count as alpha (as SignedRank). */
  static final double TOLERANCE = 1e-12;

  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(0, 1);
  /** Cumulative null distribution of S for untied ranks, by (m, 2c). */
  private static final Map<Long, double[]> UNTIED = new ConcurrentHashMap<>();

  private AdaptiveSignedRank() {}

  /** Two-sided p of H0 "the differences are symmetric about 0"; 1 when all are zero. */
  static double twoSidedP(double[] d) {
    double[] nonZero = Arrays.stream(d).filter(x -> x != 0).toArray();
    int m = nonZero.length;
    if (m == 0) {
      return 1.0; // every difference is zero: no evidence of any shift
    }
    int[] ranks2 = SignedRank.doubledMidRanks(nonZero);
    int cap = cap(m, tailWeight(nonZero));
    int[] scores2 = scores2(ranks2, cap);
    long s = 0;
    for (int i = 0; i < m; i++) {
      if (nonZero[i] > 0) {
        s += scores2[i];
      }
    }
    return untied(ranks2) ? pUntied(m, cap, s) : p(scores2, s);
  }

  /**
   * Hogg's Q of the symmetrised sample of x: mean of the largest 10% of |x| (the last one
   * with a fractional weight) over the mean of |x|. NaN when all |x| are 0 or x is empty.
   */
  static double tailWeight(double[] x) {
    int m = x.length;
    double[] abs = new double[m];
    double sum = 0;
    for (int i = 0; i < m; i++) {
      abs[i] = Math.abs(x[i]);
      sum += abs[i];
    }
    if (m == 0 || !(sum > 0)) {
      return Double.NaN;
    }
    Arrays.sort(abs);
    double g = 0.1 * m; // 5% of the 2m symmetrised values, all of them +|x|
    double top = 0;
    double left = g;
    for (int i = m - 1; i >= 0 && left > 0; i--) {
      double w = Math.min(1.0, left);
      top += w * abs[i];
      left -= w;
    }
    return (top / g) / (sum / m);
  }

  /** The score cap c (in rank units, 1..m) that the rule picks for tail weight q. */
  static int cap(int m, double q) {
    if (!(q > NORMAL_TAILS)) {
      return m; // includes NaN (all zero): nothing to bound
    }
    return q <= LAPLACE_TAILS ? (3 * m + 3) / 4 : (m + 1) / 2;
  }

  /** The caps the rule can choose for m values, ascending and distinct. */
  static int[] candidateCaps(int m) {
    return IntStream.of(cap(m, 0.0), cap(m, (NORMAL_TAILS + LAPLACE_TAILS) / 2),
        cap(m, Double.POSITIVE_INFINITY)).distinct().sorted().toArray();
  }

  /** True when the doubled mid-ranks are 2, 4, ..., 2m in some order (no ties among |d|). */
  static boolean untied(int[] ranks2) {
    boolean[] seen = new boolean[ranks2.length + 1];
    for (int r2 : ranks2) {
      if (r2 % 2 != 0 || r2 < 2 || r2 / 2 > ranks2.length || seen[r2 / 2]) {
        return false;
      }
      seen[r2 / 2] = true;
    }
    return true;
  }

  /** Doubled scores min(2R, 2c) for doubled mid-ranks 2R. */
  static int[] scores2(int[] ranks2, int cap) {
    int[] out = new int[ranks2.length];
    for (int i = 0; i < ranks2.length; i++) {
      out[i] = Math.min(ranks2[i], 2 * cap);
    }
    return out;
  }

  /** Two-sided p of the doubled statistic s given the doubled scores (any ties). */
  static double p(int[] scores2, long s) {
    if (scores2.length > EXACT_MAX_N) {
      return approxP(moments(scores2), s);
    }
    return ExactTails.twoSided(SignedRank.nullDistribution(scores2), s);
  }

  /**
   * Two-sided p for untied ranks 1..m with cap c (the case of every point strictly between
   * two Walsh averages of distinct values); the null distribution is cached.
   */
  static double pUntied(int m, int cap, long s) {
    if (m > EXACT_MAX_N) {
      return approxP(untiedMoments(m, cap), s);
    }
    double[] cdf = UNTIED.computeIfAbsent(((long) m << 32) | cap, k -> untiedCdf(m, cap));
    int total = cdf.length - 1;
    if (s < 0 || s > total) {
      return 0.0; // not a value S can take; cannot happen for a statistic of these scores
    }
    // P(S >= s) = P(S <= total - s) by the symmetry of the sign flips: no 1 - cdf rounding
    double lower = cdf[(int) s];
    double upper = cdf[total - (int) s];
    return Math.min(1.0, 2.0 * Math.min(lower, upper));
  }

  private static double[] untiedCdf(int m, int cap) {
    int[] ranks2 = new int[m];
    for (int r = 1; r <= m; r++) {
      ranks2[r - 1] = 2 * r;
    }
    double[] dist = SignedRank.nullDistribution(scores2(ranks2, cap));
    double[] cdf = new double[dist.length];
    double running = 0;
    for (int s = 0; s < dist.length; s++) {
      running += dist[s];
      cdf[s] = running;
    }
    return cdf;
  }

  /** {@link #moments} of the doubled scores of untied ranks 1..m with cap c. */
  static double[] untiedMoments(int m, int cap) {
    int[] ranks2 = new int[m];
    for (int r = 1; r <= m; r++) {
      ranks2[r - 1] = 2 * r;
    }
    return moments(scores2(ranks2, cap));
  }

  /**
   * {sum, sum of squares} of the doubled scores: the null mean of the doubled S is sum / 2,
   * its variance sum of squares / 4 (exact sums below 2^53, i.e. up to about 190,000 values).
   */
  static double[] moments(int[] scores2) {
    double total = 0;
    double squares = 0;
    for (int a : scores2) {
      total += a;
      squares += (double) a * a;
    }
    return new double[] {total, squares};
  }

  /**
   * Normal approximation with the exact conditional mean and variance of S, given the
   * {@link #moments} of its doubled scores and the doubled statistic s.
   */
  static double approxP(double[] moments, long s) {
    double se = Math.sqrt(moments[1] / 4.0);
    if (se == 0) {
      return 1.0;
    }
    double diff = s - moments[0] / 2.0;
    // half a lattice step of the undoubled statistic, as SignedRank's approximation
    double corrected = diff - Math.signum(diff) * 1.0;
    double z = corrected / se;
    return Math.min(1.0, 2.0 * STANDARD_NORMAL.cumulativeProbability(-Math.abs(z)));
  }
}
