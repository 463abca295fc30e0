package dev.abfleet.stats;

import java.util.List;

/**
 * Verdict on one metric. change, ciLow and ciHigh are relative (candidate/baseline - 1,
 * -0.05 = -5%) whatever the direction; the verdict applies the direction. NaN where a value
 * cannot be computed (warnings say why).
 *
 * @param paired true for the paired analysis (signed-rank), false for two independent
 *     samples (Mann-Whitney)
 * @param nBaseline baseline boots that produced a usable value (finite, > 0)
 * @param nCandidate candidate boots that produced a usable value
 * @param nPairs pairs used: both boots produced a usable value; 0 when unpaired
 * @param baselineCenter median of the used baseline values, in {@code unit}
 * @param candidateCenter median of the used candidate values, in {@code unit}
 * @param change Hodges-Lehmann estimate of the log ratio (paired: one-sample on the pair
 *     differences; unpaired: two-sample shift), as exp(HL) - 1; paired, when HL falls
 *     outside the 1 - alpha interval of the test, the test's own estimate instead
 * @param ciLow lower end of the interval for change: at level 1 - alpha/m for a gating metric
 *     (m = gating metrics in the comparison), 1 - alpha otherwise; at an interim look of a
 *     sequential plan, the repeated interval at that look's nominal level; for a no change
 *     called by a futility stop, the futility interval that decided (a warning names its level)
 * @param ciHigh upper end of that interval
 * @param pValue two-sided p-value: signed-rank when paired (Wilcoxon scores, bounded for the
 *     largest |d| when the differences are heavy-tailed; see {@link VerdictEngine}),
 *     Mann-Whitney U otherwise
 * @param pAdjusted adjusted across the gating rows as {@code adjustment} says; equal to pValue
 *     when not gating
 * @param reasons why the verdict is inconclusive ({@link Reasons}); empty for other verdicts
 * @param warnings human-readable notes: dropped values, too few values, diagnostics
 * @param hostClass the host class whose pairs this row judges ({@link HostClasses}); empty =
 *     every pair (one class only, or the pooled row of a cross-host comparison)
 * @param adjustment how {@code pAdjusted} accounts for the other gating rows: Holm, or maxT
 *     over joint sign flips for a small fixed design; none for a metric that does not gate
 */
public record Comparison(
    String metric,
    String unit,
    Direction better,
    boolean gating,
    boolean paired,
    int nBaseline,
    int nCandidate,
    int nPairs,
    double baselineCenter,
    double candidateCenter,
    double change,
    double ciLow,
    double ciHigh,
    double pValue,
    double pAdjusted,
    Verdict verdict,
    List<String> reasons,
    List<String> warnings,
    String hostClass,
    Adjustment adjustment) {

  public Comparison {
    hostClass = hostClass == null ? "" : hostClass;
    adjustment = adjustment == null ? (gating ? Adjustment.HOLM : Adjustment.NONE) : adjustment;
  }

  /** A row of host class {@code hostClass}, Holm-adjusted when gating. */
  public Comparison(String metric, String unit, Direction better, boolean gating, boolean paired,
      int nBaseline, int nCandidate, int nPairs, double baselineCenter, double candidateCenter,
      double change, double ciLow, double ciHigh, double pValue, double pAdjusted,
      Verdict verdict, List<String> reasons, List<String> warnings, String hostClass) {
    this(metric, unit, better, gating, paired, nBaseline, nCandidate, nPairs, baselineCenter,
        candidateCenter, change, ciLow, ciHigh, pValue, pAdjusted, verdict, reasons, warnings,
        hostClass, null);
  }

  /** A comparison of every pair (no host class). */
  public Comparison(String metric, String unit, Direction better, boolean gating, boolean paired,
      int nBaseline, int nCandidate, int nPairs, double baselineCenter, double candidateCenter,
      double change, double ciLow, double ciHigh, double pValue, double pAdjusted,
      Verdict verdict, List<String> reasons, List<String> warnings) {
    this(metric, unit, better, gating, paired, nBaseline, nCandidate, nPairs, baselineCenter,
        candidateCenter, change, ciLow, ciHigh, pValue, pAdjusted, verdict, reasons, warnings,
        "");
  }

  /** A paired comparison in which every pair counts for both arms. */
  public Comparison(String metric, String unit, Direction better, boolean gating, int nPairs,
      double baselineCenter, double candidateCenter, double change, double ciLow, double ciHigh,
      double pValue, double pAdjusted, Verdict verdict, List<String> reasons,
      List<String> warnings) {
    this(metric, unit, better, gating, true, nPairs, nPairs, nPairs, baselineCenter,
        candidateCenter, change, ciLow, ciHigh, pValue, pAdjusted, verdict, reasons, warnings);
  }

  /** True for improved and regressed. */
  public boolean decisive() {
    return verdict == Verdict.IMPROVED || verdict == Verdict.REGRESSED;
  }

  Comparison withWarningsFirst(List<String> extra) {
    if (extra.isEmpty()) {
      return this;
    }
    List<String> all = new java.util.ArrayList<>(extra);
    all.addAll(warnings);
    return new Comparison(metric, unit, better, gating, paired, nBaseline, nCandidate, nPairs,
        baselineCenter, candidateCenter, change, ciLow, ciHigh, pValue, pAdjusted, verdict,
        reasons, List.copyOf(all), hostClass, adjustment);
  }

  /** This row, judging the pairs of {@code cls} (empty = every pair). */
  public Comparison withHostClass(String cls) {
    return new Comparison(metric, unit, better, gating, paired, nBaseline, nCandidate, nPairs,
        baselineCenter, candidateCenter, change, ciLow, ciHigh, pValue, pAdjusted, verdict,
        reasons, warnings, cls, adjustment);
  }

  /** This row with another interval (relative, as ciLow and ciHigh), everything else kept. */
  Comparison withInterval(double low, double high) {
    return new Comparison(metric, unit, better, gating, paired, nBaseline, nCandidate, nPairs,
        baselineCenter, candidateCenter, change, low, high, pValue, pAdjusted, verdict,
        reasons, warnings, hostClass, adjustment);
  }

  /** This row with another verdict, adjusted p, reasons and warnings (numbers unchanged). */
  public Comparison withJudgement(Verdict newVerdict, double newPAdjusted, List<String> newReasons,
      List<String> newWarnings) {
    return new Comparison(metric, unit, better, gating, paired, nBaseline, nCandidate, nPairs,
        baselineCenter, candidateCenter, change, ciLow, ciHigh, pValue, newPAdjusted, newVerdict,
        List.copyOf(newReasons), List.copyOf(newWarnings), hostClass, adjustment);
  }
}
