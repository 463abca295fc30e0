package dev.abfleet.stats;

import java.util.List;

/**
 * Verdict on one metric. change, ciLow and ciHigh are relative (candidate/baseline - 1,
 * -0.05 = -5%) whatever the direction; the verdict applies the direction. NaN where a value
 * cannot be computed (warnings say why).
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
