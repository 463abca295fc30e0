package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Several paired metrics tested at once with one family-wise error rate, for the small
 * experiments people run (up to {@link #EXACT_MAX_N} pairs): single-step maxT over the metrics
 * (Westfall and Young), the null distribution from flipping the sign of whole pairs (every
 * metric of a pair together), each metric measured on its winsorized within-pair log-ratios.
 *
 * <p><b>Why.</b> At 8-16 pairs Holm over single-metric rank tests gives the first metric
 * alpha/m, and one metric's sign-flip distribution is too coarse to use it well (8 pairs: 128
 * distinct patterns, so alpha/4 admits only the one most extreme). The metrics of one boot move
 * together (a slow boot is slow on every metric), so the largest of m statistics is far less
 * extreme under the null than m independent ones; maxT spends alpha on that joint distribution
 * and on a continuous scale instead of on a bound.
 *
 * <p><b>Statistic.</b> w_i is d_i = ln(candidate_i) - ln(baseline_i) with |d_i| clipped at the
 * (k+1)-th largest |d| (k = floor(n/5): winsorized by magnitude, so clipping commutes with sign
 * flips; one or two slow boots move the sum little), and T = |sum w_i| / s, where s is the
 * standard deviation of the metric's 2n log values of both arms pooled. Swapping a pair's two
 * boots leaves that pool unchanged, so s is the same for every pattern (the test stays exact);
 * it puts metrics of different noise on one scale, and unlike sqrt(sum w^2) it grows little
 * with a true shift, so a metric that really moved is not made to look smaller by its own
 * move (in a prototype on the calibrate scenarios, about 8 points of power at 8-12 pairs).
 *
 * <p><b>Family.</b> maxT(f) = the largest T over the metrics for sign pattern f. The adjusted
 * p of metric j is the share of patterns with maxT(f) &ge; T_j. Under H0 (within every pair,
 * the vector of the metrics' differences is symmetric about 0, as when both arms boot the same
 * kernel) every joint pattern is equally likely given the |w|: rejecting where the adjusted p
 * is &le; alpha has family-wise error at most alpha.
 *
 * <p><b>Interval.</b> The shifts s for which the same family test, with the metric's candidate
 * shifted down by s, would not reject the metric: it excludes 0 exactly when the metric is
 * significant. The estimate is the shift where the winsorized sum of d - s changes sign
 * (T = 0), always inside the interval.
 */
public final class JointSignFlip {
  /** Largest number of pairs handled: 2^(n-1) patterns are enumerated. */
  public static final int EXACT_MAX_N = 16;
  private static final double TIE = 1e-9;
  private static final int BISECTIONS = 30;

  private JointSignFlip() {}

  /**
   * @param pairs complete pairs used
   * @param pValues marginal two-sided p per metric (its own sign-flip test)
   * @param adjusted maxT-adjusted p per metric
   * @param logEstimates per metric: the shift where the winsorized sum changes sign
   * @param logIntervals per metric: [low, high], the shifts not rejected; null when no pattern
   *     is extreme enough to reject anything (too few pairs)
   */
  public record Result(int pairs, double[] pValues, double[] adjusted, double[] logEstimates,
      double[][] logIntervals) {}

  /**
   * @param logBaseline per metric, per pair: ln(baseline value)
   * @param logCandidate per metric, per pair: ln(candidate value); pairs where any metric of
   *     either arm is NaN or infinite are left out (the flips act on whole pairs)
   * @return null when fewer than 2 or more than {@link #EXACT_MAX_N} complete pairs remain
   */
  public static Result test(double[][] logBaseline, double[][] logCandidate, double alpha) {
    Family f = family(logBaseline, logCandidate);
    if (f == null) {
      return null;
    }
    int m = f.d.length;
    double[] estimates = new double[m];
    double[][] intervals = new double[m][];
    boolean canReject = shareAtLeast(f.sortedMax, f.sortedMax[f.sortedMax.length - 1]) <= alpha;
    for (int j = 0; j < m; j++) {
      estimates[j] = estimate(f.d[j]);
      intervals[j] = canReject ? interval(f, j, estimates[j], alpha) : null;
    }
    return new Result(f.d[0].length, f.p, f.adjusted, estimates, intervals);
  }

  /** The maxT-adjusted p per metric, without estimates and intervals; null as for test. */
  static double[] adjustedP(double[][] logBaseline, double[][] logCandidate) {
    Family f = family(logBaseline, logCandidate);
    return f == null ? null : f.adjusted;
  }

  /**
   * The complete pairs' logs and differences, each metric's T for every pattern, marginal and
   * adjusted p, and the sorted maxT.
   */
  private record Family(double[][] logA, double[][] logC, double[][] d, double[][] t,
      double[] p, double[] adjusted, double[] sortedMax) {}

  private static Family family(double[][] logBaseline, double[][] logCandidate) {
    int[] keep = complete(logBaseline, logCandidate);
    int m = logBaseline.length;
    int n = keep.length;
    if (m == 0 || n < 2 || n > EXACT_MAX_N) {
      return null;
    }
    double[][] logA = new double[m][n];
    double[][] logC = new double[m][n];
    double[][] d = new double[m][n];
    for (int j = 0; j < m; j++) {
      for (int k = 0; k < n; k++) {
        logA[j][k] = logBaseline[j][keep[k]];
        logC[j][k] = logCandidate[j][keep[k]];
        d[j][k] = logC[j][k] - logA[j][k];
      }
    }
    int patterns = 1 << (n - 1);
    double[] max = new double[patterns];
    double[] observed = new double[m];
    double[] p = new double[m];
    double[][] t = new double[m][];
    for (int j = 0; j < m; j++) {
      t[j] = patternStatistics(winsorized(d[j]), scale(logA[j], logC[j], 0));
      observed[j] = t[j][0];
      p[j] = share(t[j], t[j][0]);
      for (int f = 0; f < patterns; f++) {
        max[f] = Math.max(max[f], t[j][f]);
      }
    }
    Arrays.sort(max);
    double[] adjusted = new double[m];
    for (int j = 0; j < m; j++) {
      adjusted[j] = shareAtLeast(max, observed[j]);
    }
    return new Family(logA, logC, d, t, p, adjusted, max);
  }

  /** Standard deviation of both arms' logs pooled, the candidate's shifted down by s. */
  private static double scale(double[] logA, double[] logC, double s) {
    int n = logA.length;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += logA[i] + logC[i] - s;
    }
    double mean = sum / (2 * n);
    double ss = 0;
    for (int i = 0; i < n; i++) {
      ss += (logA[i] - mean) * (logA[i] - mean) + (logC[i] - s - mean) * (logC[i] - s - mean);
    }
    return Math.sqrt(ss / (2 * n - 1));
  }

  /** Share of the sorted values at least t (ties within a relative 1e-9 count). */
  private static double shareAtLeast(double[] sorted, double t) {
    return (sorted.length - Sorted.lowerBound(sorted, t * (1 - TIE))) / (double) sorted.length;
  }

  /**
   * T = |sum w| / scale for each of the 2^(n-1) sign patterns with pair 0 unflipped (T is even
   * in the flips), in Gray-code order from the observed pattern (index 0).
   */
  static double[] patternStatistics(double[] w, double scale) {
    int n = w.length;
    int patterns = 1 << (n - 1);
    double[] t = new double[patterns];
    if (!(scale > 0)) {
      return t; // every value equal: no pattern is more extreme than another
    }
    boolean[] flipped = new boolean[n];
    double sum = Arrays.stream(w).sum();
    for (int g = 0; g < patterns; g++) {
      if (g > 0) {
        int i = 1 + Integer.numberOfTrailingZeros(g);
        sum += flipped[i] ? 2 * w[i] : -2 * w[i];
        flipped[i] = !flipped[i];
      }
      t[g] = Math.abs(sum) / scale;
    }
    return t;
  }

  /** Share of patterns with T at least {@code observed}. */
  private static double share(double[] t, double observed) {
    long count = Arrays.stream(t).filter(v -> v >= observed * (1 - TIE)).count();
    return count / (double) t.length;
  }

  /**
   * The shifts s for which the family test, run again with metric j's candidate values shifted
   * down by s (its d, scale and flip distribution recomputed, the other metrics as they are),
   * would not reject metric j: from the estimate (T = 0, never rejected) out to the first
   * rejected shift on each side, by bisection. At s = 0 this is the test itself, so the interval
   * excludes 0 exactly when the metric is significant. Far from the data every w has one sign
   * and the observed pattern is metric j's most extreme; the reach doubles until a rejected
   * shift is found. Null when a side has none within reach.
   */
  private static double[] interval(Family f, int j, double estimate, double alpha) {
    int patterns = f.sortedMax.length;
    double[] others = new double[patterns];
    for (int k = 0; k < f.t.length; k++) {
      if (k != j) {
        for (int g = 0; g < patterns; g++) {
          others[g] = Math.max(others[g], f.t[k][g]);
        }
      }
    }
    double[] d = f.d[j];
    double span = Arrays.stream(d).max().orElse(0) - Arrays.stream(d).min().orElse(0);
    if (span == 0) {
      // The same difference in every pair: no uncertainty about this metric's shift (and with
      // no boot-to-boot noise the pooled scale would only measure the trial shift itself).
      return new double[] {d[0], d[0]};
    }
    double[] out = new double[2];
    for (int side = 0; side < 2; side++) {
      double reach = Math.max(span, 1e-6);
      double far = Double.NaN;
      for (int k = 0; k < 40 && Double.isNaN(far); k++, reach *= 2) {
        double s = side == 0 ? estimate - reach : estimate + reach;
        if (!accepted(f, j, others, s, alpha)) {
          far = s;
        }
      }
      if (Double.isNaN(far)) {
        return null;
      }
      double in = estimate;
      for (int k = 0; k < BISECTIONS; k++) {
        double mid = (in + far) / 2;
        if (accepted(f, j, others, mid, alpha)) {
          in = mid;
        } else {
          far = mid;
        }
      }
      out[side] = (in + far) / 2;
    }
    return out;
  }

  /** Whether metric j, its candidate shifted down by s, is not rejected by the family. */
  private static boolean accepted(Family f, int j, double[] others, double s, double alpha) {
    double[] t = patternStatistics(winsorized(shifted(f.d[j], s)),
        scale(f.logA[j], f.logC[j], s));
    double observed = t[0] * (1 - TIE);
    long atLeast = 0;
    for (int g = 0; g < t.length; g++) {
      if (Math.max(t[g], others[g]) >= observed) {
        atLeast++;
      }
    }
    return atLeast / (double) t.length > alpha;
  }

  /** The shift s where sum of winsorized (d - s) changes sign, by bisection. */
  static double estimate(double[] d) {
    double lo = Arrays.stream(d).min().orElse(0);
    double hi = Arrays.stream(d).max().orElse(0);
    for (int k = 0; k < BISECTIONS; k++) {
      double mid = (lo + hi) / 2;
      if (Arrays.stream(winsorized(shifted(d, mid))).sum() > 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  private static double[] shifted(double[] d, double s) {
    double[] out = new double[d.length];
    for (int i = 0; i < d.length; i++) {
      out[i] = d[i] - s;
    }
    return out;
  }

  /** Indices of the pairs where every metric of both arms has a finite value. */
  static int[] complete(double[][] logBaseline, double[][] logCandidate) {
    int n = Integer.MAX_VALUE;
    for (int j = 0; j < logBaseline.length; j++) {
      n = Math.min(n, Math.min(logBaseline[j].length, logCandidate[j].length));
    }
    List<Integer> keep = new ArrayList<>();
    for (int i = 0; i < (logBaseline.length == 0 ? 0 : n); i++) {
      boolean ok = true;
      for (int j = 0; j < logBaseline.length; j++) {
        ok &= Double.isFinite(logBaseline[j][i]) && Double.isFinite(logCandidate[j][i]);
      }
      if (ok) {
        keep.add(i);
      }
    }
    return keep.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The differences with |d| clipped at the (k+1)-th largest |d|, k = floor(n/5). */
  static double[] winsorized(double[] d) {
    int n = d.length;
    int k = n / 5;
    if (k == 0) {
      return d.clone();
    }
    double[] abs = Arrays.stream(d).map(Math::abs).sorted().toArray();
    double cap = abs[n - 1 - k];
    return Arrays.stream(d).map(x -> Math.max(-cap, Math.min(cap, x))).toArray();
  }
}
