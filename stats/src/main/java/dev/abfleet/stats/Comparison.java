package dev.abfleet.stats;

import java.util.List;

/**
 * Verdict on one metric. change, ciLow and ciHigh are relative (candidate/baseline - 1,
 * -0.05 = -5%) whatever the direction; the verdict applies the direction. NaN where a value
 * cannot be computed (warnings say why).
 *
 * @param nPairs pairs used: both boots produced a finite value > 0
 * @param baselineCenter median of the used baseline values, in {@code unit}
 * @param candidateCenter median of the used candidate values, in {@code unit}
 * @param change Hodges-Lehmann estimate of the paired log ratio, as exp(HL) - 1
 * @param ciLow lower end of the interval for change: at level 1 - alpha/m for a gating metric
 *     (m = gating metrics in the comparison), 1 - alpha otherwise
 * @param ciHigh upper end of that interval
 * @param pValue two-sided Wilcoxon signed-rank p-value
 * @param pAdjusted Holm-adjusted across the gating metrics; equal to pValue when not gating
 * @param reasons why the verdict is inconclusive ({@link Reasons}); empty for other verdicts
 * @param warnings human-readable notes: dropped pairs, too few pairs, drift
 */
public record Comparison(
    String metric,
    String unit,
    Direction better,
    boolean gating,
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
    List<String> warnings) {}
