package dev.abfleet.stats;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Paired analysis of one metric: Hodges-Lehmann estimate of the log ratio, signed-rank
 * interval at a given level, and the direction-aware verdict.
 */
final class PairedComparison {
  private PairedComparison() {}

  /** Signed-rank p-value of the pairs; NaN below two usable pairs. */
  static double pValue(Pairs pairs) {
    return pairs.n() < 2 ? Double.NaN : SignedRank.twoSidedP(pairs.logRatios());
  }

  /**
   * @param pValue from {@link #pValue}
   * @param pAdjusted the p-value after family-wise adjustment (= pValue when not gating)
   * @param ciAlpha two-sided level of the reported interval (alpha/m for a gating metric)
   */
  static Comparison compare(
      MetricInput in, Pairs pairs, double pValue, double pAdjusted, double ciAlpha,
      Policy policy) {
    int n = pairs.n();
    List<String> warnings = new ArrayList<>(pairs.warnings());
    double hl = Double.NaN;
    double[] ci = null;
    if (n >= 2) {
      double[] walsh = HodgesLehmann.walshAverages(pairs.logRatios());
      hl = HodgesLehmann.estimate(walsh);
      ci = HodgesLehmann.interval(walsh, n, ciAlpha);
    }
    if (ci == null) {
      warnings.add("n=" + n + " usable " + Pairs.plural(n, "pair") + "; need at least "
          + HodgesLehmann.minPairsForInterval(ciAlpha) + " for a " + percent(1 - ciAlpha)
          + " interval");
    }
    boolean drift = drifts(pairs.logRatios(), policy.alpha(), warnings);
    double change = Math.expm1(hl);
    double ciLow = ci == null ? Double.NaN : Math.expm1(ci[0]);
    double ciHigh = ci == null ? Double.NaN : Math.expm1(ci[1]);
    Direction better = in.better();
    if (better == null) {
      better = Direction.HIGHER;
      warnings.add("no direction given; assuming higher is better");
    }
    Verdict verdict = decide(better, change, ciLow, ciHigh, pAdjusted, policy);
    List<String> reasons = verdict == Verdict.INCONCLUSIVE
        ? reasons(ciLow, ciHigh, pairs.failedBoots(), drift, policy)
        : List.of();
    return new Comparison(
        in.metric(), in.unit(), better, in.gating(), n,
        VerdictEngine.median(pairs.baseline()), VerdictEngine.median(pairs.candidate()),
        change, ciLow, ciHigh, pValue, pAdjusted, verdict, reasons,
        List.copyOf(warnings));
  }

  /**
   * Significant (adjusted p <= alpha and the interval excludes 0) and beyond the noise
   * threshold: improved or regressed by direction. Interval inside [-Δ, +Δ]: no change.
   * Anything else, including a missing interval: inconclusive.
   */
  static Verdict decide(
      Direction better, double change, double ciLow, double ciHigh, double pAdjusted,
      Policy policy) {
    double delta = policy.noiseThreshold();
    boolean haveInterval = !Double.isNaN(ciLow) && !Double.isNaN(ciHigh);
    boolean significant =
        haveInterval && pAdjusted <= policy.alpha() && (ciLow > 0 || ciHigh < 0);
    if (significant && Math.abs(change) > delta) {
      boolean up = change > 0;
      return up == (better == Direction.HIGHER) ? Verdict.IMPROVED : Verdict.REGRESSED;
    }
    if (haveInterval && ciLow >= -delta && ciHigh <= delta) {
      return Verdict.NO_CHANGE;
    }
    return Verdict.INCONCLUSIVE;
  }

  /** Why a comparison is inconclusive; never empty. */
  static List<String> reasons(
      double ciLow, double ciHigh, int failedBoots, boolean drift, Policy policy) {
    List<String> reasons = new ArrayList<>();
    boolean noInterval = Double.isNaN(ciLow) || Double.isNaN(ciHigh);
    if (noInterval || ciHigh - ciLow > 2 * policy.noiseThreshold()) {
      reasons.add(Reasons.UNDERPOWERED);
    }
    if (failedBoots > 0) {
      reasons.add(Reasons.BOOT_FAILURES);
    }
    if (drift) {
      reasons.add(Reasons.DRIFT);
    }
    if (reasons.isEmpty()) {
      reasons.add(Reasons.NEAR_THRESHOLD);
    }
    return List.copyOf(reasons);
  }

  /**
   * Kendall's tau of d over the pair index, two-sided at level alpha (not adjusted for
   * multiplicity: it only qualifies a verdict, it never makes one). Adds a warning when
   * significant.
   */
  private static boolean drifts(double[] d, double alpha, List<String> warnings) {
    Trend.Result trend = Trend.kendall(d);
    if (!(trend.p() <= alpha)) {
      return false;
    }
    warnings.add(String.format(java.util.Locale.ROOT,
        "the paired differences trend over the run (Kendall tau=%.2f, p=%.3g): "
            + "the effect is not stable from first to last pair", trend.tau(), trend.p()));
    return true;
  }

  /** 0.95 -> "95%", 0.9875 -> "98.75%". */
  static String percent(double level) {
    BigDecimal pct = BigDecimal.valueOf(level * 100).setScale(2, java.math.RoundingMode.HALF_UP);
    return pct.stripTrailingZeros().toPlainString() + "%";
  }
}
