package dev.abfleet.stats;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/** Turns the evidence on one metric into a direction-aware verdict at a given level. */
final class Verdicts {
  private Verdicts() {}

  /**
   * @param pAdjusted the p-value after family-wise adjustment (= pValue when not gating)
   * @param significant the family-wise test (Holm at this look's levels) rejects "no shift"
   * @param ciAlpha two-sided level of the reported interval
   */
  static Comparison judge(MetricInput in, Evidence ev, double pAdjusted, boolean significant,
      double ciAlpha, Policy policy) {
    List<String> warnings = new ArrayList<>(ev.warnings());
    double[] ci = ev.logInterval(ciAlpha);
    if (ci == null) {
      warnings.add(ev.noIntervalWarning(ciAlpha));
    }
    double change = Math.expm1(ev.logEstimate());
    double ciLow = ci == null ? Double.NaN : Math.expm1(ci[0]);
    double ciHigh = ci == null ? Double.NaN : Math.expm1(ci[1]);
    Direction better = in.better();
    if (better == null) {
      better = Direction.HIGHER;
      warnings.add("no direction given; assuming higher is better");
    }
    Verdict verdict = decide(better, change, ciLow, ciHigh, significant,
        policy.noiseThreshold());
    if (ev.hostsDisagree()) {
      verdict = Verdict.INCONCLUSIVE;
    }
    List<String> reasons = verdict == Verdict.INCONCLUSIVE
        ? reasons(ciLow, ciHigh, ev.flags(), policy.noiseThreshold())
        : List.of();
    return new Comparison(in.metric(), in.unit(), better, in.gating(), ev.paired(),
        ev.nBaseline(), ev.nCandidate(), ev.nPairs(), ev.baselineCenter(),
        ev.candidateCenter(), change, ciLow, ciHigh, ev.pValue(), pAdjusted, verdict, reasons,
        List.copyOf(warnings), "", !in.gating() ? Adjustment.NONE
            : ev instanceof JointEvidence ? Adjustment.MAXT : Adjustment.HOLM);
  }

  /**
   * The futility stop of a sequential plan: {@code c} (inconclusive at this look) becomes no
   * change when the metric's interval at the futility level lies inside the band
   * ±max(futility effect, noise threshold), i.e. a change of the effect worth finding is ruled
   * out with error at most beta. The row then carries that interval (the one that decided), so
   * the verdict can be read off the interval shown; a warning names its level. Otherwise, or
   * when the hosts disagree, {@code c} unchanged.
   *
   * @param level two-sided level of the futility interval at this look
   * @param where the look, for the note: "look 2 of 4 (16 pairs)"
   */
  static Comparison futile(Comparison c, Evidence ev, double level, String where, Policy policy) {
    if (c.verdict() != Verdict.INCONCLUSIVE || ev.hostsDisagree()) {
      return c;
    }
    double[] ci = ev.logInterval(level);
    if (ci == null) {
      return c;
    }
    double band = Math.max(policy.futilityEffect(), policy.noiseThreshold());
    double low = Math.expm1(ci[0]);
    double high = Math.expm1(ci[1]);
    if (!(low >= -band && high <= band)) {
      return c;
    }
    List<String> warnings = new ArrayList<>();
    warnings.add(String.format(java.util.Locale.ROOT,
        "futility stop at %s: the %s interval %+.2f%% .. %+.2f%% rules out a change of ±%s or"
            + " more (beta %s); smaller changes were not tested; this row shows that interval"
            + " (%s)",
        where, percent(1 - level), 100 * low, 100 * high, percent(band),
        percent(policy.futilityBeta()), Double.isNaN(c.ciLow()) || Double.isNaN(c.ciHigh())
            ? "there is no efficacy interval at this look"
            : String.format(java.util.Locale.ROOT, "the efficacy interval was %+.2f%% .. %+.2f%%",
                100 * c.ciLow(), 100 * c.ciHigh())));
    warnings.addAll(c.warnings());
    return c.withInterval(low, high)
        .withJudgement(Verdict.NO_CHANGE, c.pAdjusted(), List.of(), warnings);
  }

  /**
   * Significant, the interval excludes 0, and the estimate is beyond the noise threshold:
   * improved or regressed by direction. Interval inside [-Δ, +Δ]: no change (equivalence).
   * Otherwise, the interval's worse end (the low end when higher is better, the high end when
   * lower is better) within -Δ: holds (non-inferiority). Anything else, including a missing
   * interval: inconclusive.
   *
   * <p>The interval has two-sided level 1 - a (a = alpha/m for a gating metric, the look's
   * nominal level in a sequential plan, the maxT level in a small fixed design), so its worse
   * end alone is a one-sided test of "worse by Δ or more" at a/2: holds adds no error beyond
   * the a the interval already spends, and a family of gating metrics that all hold has been
   * shown non-inferior with family-wise error at most alpha/2.
   */
  static Verdict decide(Direction better, double change, double ciLow, double ciHigh,
      boolean significant, double delta) {
    boolean haveInterval = !Double.isNaN(ciLow) && !Double.isNaN(ciHigh);
    boolean excludesZero = haveInterval && (ciLow > 0 || ciHigh < 0);
    if (significant && excludesZero && Math.abs(change) > delta) {
      boolean up = change > 0;
      return up == (better == Direction.HIGHER) ? Verdict.IMPROVED : Verdict.REGRESSED;
    }
    if (haveInterval && ciLow >= -delta && ciHigh <= delta) {
      return Verdict.NO_CHANGE;
    }
    boolean worseEndWithin = better == Direction.LOWER ? ciHigh <= delta : ciLow >= -delta;
    if (haveInterval && worseEndWithin) {
      return Verdict.HOLDS;
    }
    return Verdict.INCONCLUSIVE;
  }

  /** Why a comparison is inconclusive; never empty. */
  static List<String> reasons(double ciLow, double ciHigh, List<String> flags, double delta) {
    List<String> reasons = new ArrayList<>();
    boolean noInterval = Double.isNaN(ciLow) || Double.isNaN(ciHigh);
    if (noInterval || ciHigh - ciLow > 2 * delta) {
      reasons.add(Reasons.UNDERPOWERED);
    }
    reasons.addAll(flags);
    if (reasons.isEmpty()) {
      reasons.add(Reasons.NEAR_THRESHOLD);
    }
    return List.copyOf(reasons);
  }

  /**
   * 0.95 -> "95%", 0.9875 -> "98.75%"; a level below 1 never reads "100%" (an early look's
   * level, 0.99999 -> "99.999%"): as many decimals as it takes, up to eight.
   */
  static String percent(double level) {
    BigDecimal exact = BigDecimal.valueOf(level * 100);
    BigDecimal hundred = BigDecimal.valueOf(100);
    int scale = 2;
    BigDecimal pct = exact.setScale(scale, RoundingMode.HALF_UP);
    while (level < 1 && pct.compareTo(hundred) >= 0 && scale < 8) {
      pct = exact.setScale(++scale, RoundingMode.HALF_UP);
    }
    return pct.stripTrailingZeros().toPlainString() + "%";
  }
}
