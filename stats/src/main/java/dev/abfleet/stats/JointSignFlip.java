package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * Several paired metrics tested at once with one family-wise error rate, for the small
 * experiments people run (up to {@link #EXACT_MAX_N} pairs): single-step maxT over the metrics
 * (Westfall and Young), the null distribution from flipping the sign of whole pairs (every
 * metric of a pair together), each metric measured on normal scores of its pooled ranks.
 *
 * <p><b>Why.</b> At 8-16 pairs Holm over single-metric rank tests gives the first metric
 * alpha/m, and one metric's sign-flip distribution is too coarse to use it well (8 pairs: 128
 * distinct patterns, so alpha/4 admits only the one most extreme). The metrics of one boot move
 * together (a slow boot is slow on every metric), so the largest of m statistics is far less
 * extreme under the null than m independent ones; maxT spends alpha on that joint distribution
 * and on a continuous scale instead of on a bound.
 *
 * <p><b>Statistic.</b> Per metric, the 2n log values of both arms are ranked together (mid-ranks
 * for ties) and rank r becomes the van der Waerden score z(r) = Phi^-1(r / (2n + 1)); pair i
 * gives w_i = z(candidate_i) - z(baseline_i), and T = |sum w_i|. Swapping a pair's two boots
 * leaves the pooled set of scores unchanged and turns w_i into -w_i, so flipping whole pairs is
 * exact under exchangeability of the two boots of a pair, whatever the pair factor. Ranks bound
 * what one boot can weigh: a boot that runs several times slower takes the lowest score, the
 * same as one just below the others, and its partner's score still counts against every other
 * boot. Every metric's scores come from the same set, so the metrics share one scale. Chosen
 * over the earlier winsorized log-ratios (|d| clipped at the (floor(n/5)+1)-th largest, scaled
 * by the pooled sd) on issue 25's slowboot scenario, where they gain 1-10 points of power at
 * ±5% and 11-12 at ±10% (a pooled Mann-Whitney test stays a little ahead there); the price is a
 * few points where pair levels spread the pooled values (a large pair factor or drift), which
 * the log-ratios cancelled (BENCHMARKS.md, "Slow boots at 8, 12 and 16 pairs").
 *
 * <p><b>Family.</b> maxT(f) = the largest T over the metrics for sign pattern f. The adjusted
 * p of metric j is the share of patterns with maxT(f) &ge; T_j. Under H0 (within every pair,
 * the vector of the metrics' differences is symmetric about 0, as when both arms boot the same
 * kernel) every joint pattern is equally likely given the |w|: rejecting where the adjusted p
 * is &le; alpha has family-wise error at most alpha.
 *
 * <p><b>Interval.</b> The shifts s for which the same family test, with the metric's candidate
 * shifted down by s, would not reject the metric: it excludes 0 exactly when the metric is
 * significant. The estimate is the shift where the sum of the scores of d - s changes sign
 * (T = 0: a two-sample normal-scores location estimate), always inside the interval.
 */
public final class JointSignFlip {
  /** Largest number of pairs handled: 2^(n-1) patterns are enumerated. */
  public static final int EXACT_MAX_N = 16;
  private static final double TIE = 1e-9;
  private static final int BISECTIONS = 30;
  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(0, 1);

  private JointSignFlip() {}

  /**
   * @param pairs complete pairs used
   * @param pValues marginal two-sided p per metric (its own sign-flip test)
   * @param adjusted maxT-adjusted p per metric
   * @param logEstimates per metric: the shift where the sum of the scores changes sign
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
      estimates[j] = estimate(f.logA[j], f.logC[j]);
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
      t[j] = patternStatistics(scores(logA[j], logC[j], 0));
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

  /**
   * w_i = z(candidate_i - s) - z(baseline_i): van der Waerden scores of the metric's 2n values
   * (the candidate's shifted down by s) ranked together, mid-ranks for ties.
   */
  static double[] scores(double[] logA, double[] logC, double s) {
    int n = logA.length;
    double[] pooled = new double[2 * n];
    for (int i = 0; i < n; i++) {
      pooled[i] = logA[i];
      pooled[n + i] = logC[i] - s;
    }
    double[] rank = midRanks(pooled);
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = normalScore(rank[n + i], 2 * n) - normalScore(rank[i], 2 * n);
    }
    return w;
  }

  private static double normalScore(double rank, int size) {
    return STANDARD_NORMAL.inverseCumulativeProbability(rank / (size + 1));
  }

  /** Ranks 1..n of the values, tied values sharing the mean of their ranks. */
  static double[] midRanks(double[] values) {
    Integer[] order = new Integer[values.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (x, y) -> Double.compare(values[x], values[y]));
    double[] rank = new double[values.length];
    for (int lo = 0; lo < order.length; ) {
      int hi = lo;
      while (hi + 1 < order.length && values[order[hi + 1]] == values[order[lo]]) {
        hi++;
      }
      for (int k = lo; k <= hi; k++) {
        rank[order[k]] = (lo + hi) / 2.0 + 1;
      }
      lo = hi + 1;
    }
    return rank;
  }

  /** Share of the sorted values at least t (ties within a relative 1e-9 count). */
  private static double shareAtLeast(double[] sorted, double t) {
    return (sorted.length - Sorted.lowerBound(sorted, t * (1 - TIE))) / (double) sorted.length;
  }

  /**
   * T = |sum w| for each of the 2^(n-1) sign patterns with pair 0 unflipped (T is even in the
   * flips), in Gray-code order from the observed pattern (index 0).
   */
  static double[] patternStatistics(double[] w) {
    int n = w.length;
    int patterns = 1 << (n - 1);
    double[] t = new double[patterns];
    boolean[] flipped = new boolean[n];
    double sum = Arrays.stream(w).sum();
    for (int g = 0; g < patterns; g++) {
      if (g > 0) {
        int i = 1 + Integer.numberOfTrailingZeros(g);
        sum += flipped[i] ? 2 * w[i] : -2 * w[i];
        flipped[i] = !flipped[i];
      }
      t[g] = Math.abs(sum);
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
   * down by s (its scores and flip distribution recomputed, the other metrics as they are),
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
      // The same difference in every pair: no uncertainty about this metric's shift (the
      // pooled ranks would only measure the spread of the pair levels).
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
    double[] t = patternStatistics(scores(f.logA[j], f.logC[j], s));
    double observed = t[0] * (1 - TIE);
    long atLeast = 0;
    for (int g = 0; g < t.length; g++) {
      if (Math.max(t[g], others[g]) >= observed) {
        atLeast++;
      }
    }
    return atLeast / (double) t.length > alpha;
  }

  /**
   * The shift s where the sum of the scores of (baseline, candidate - s) changes sign, by
   * bisection: it falls from positive (every candidate value above every baseline value) to
   * negative as s grows. The common difference when every pair has the same one.
   */
  static double estimate(double[] logA, double[] logC) {
    double dMin = Double.POSITIVE_INFINITY;
    double dMax = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < logA.length; i++) {
      dMin = Math.min(dMin, logC[i] - logA[i]);
      dMax = Math.max(dMax, logC[i] - logA[i]);
    }
    if (dMin == dMax) {
      return dMin;
    }
    double lo = Arrays.stream(logC).min().orElse(0) - Arrays.stream(logA).max().orElse(0);
    double hi = Arrays.stream(logC).max().orElse(0) - Arrays.stream(logA).min().orElse(0);
    for (int k = 0; k < BISECTIONS; k++) {
      double mid = (lo + hi) / 2;
      if (Arrays.stream(scores(logA, logC, mid)).sum() > 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
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

}
