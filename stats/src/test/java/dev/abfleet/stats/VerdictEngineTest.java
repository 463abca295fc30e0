package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictEngineTest {
  private static final double NAN = Double.NaN;
  private static final double[] BASE = {100, 101, 99, 102, 100, 98, 101, 100};

  static MetricInput metric(Direction better, boolean gating, double[] base, double[] ratios) {
    double[] cand = new double[ratios.length];
    for (int i = 0; i < ratios.length; i++) {
      cand[i] = base[i] * ratios[i];
    }
    return new MetricInput("m", "ops/s", better, gating, base, cand);
  }

  static Comparison single(MetricInput in) {
    return VerdictEngine.comparePaired(List.of(in), Policy.DEFAULT).get(0);
  }

  static final double[] MINUS_20 = {0.80, 0.81, 0.79, 0.80, 0.82, 0.80, 0.78, 0.80};

  @Test
  void lowerIsBetterMetricThatDropsIsImproved() {
    Comparison c = single(metric(Direction.LOWER, false, BASE, MINUS_20));
    assertThat(c.verdict()).isEqualTo(Verdict.IMPROVED);
    assertThat(c.change()).isCloseTo(-0.20, within(0.01));
    assertThat(c.ciHigh()).isLessThan(0);
  }

  @Test
  void higherIsBetterMetricThatDropsIsRegressed() {
    Comparison c = single(metric(Direction.HIGHER, false, BASE, MINUS_20));
    assertThat(c.verdict()).isEqualTo(Verdict.REGRESSED);
    assertThat(c.reasons()).isEmpty();
  }

  @Test
  void higherIsBetterMetricThatRisesIsImproved() {
    double[] plus = {1.20, 1.21, 1.19, 1.22, 1.18, 1.20, 1.20, 1.21};
    assertThat(single(metric(Direction.HIGHER, false, BASE, plus)).verdict())
        .isEqualTo(Verdict.IMPROVED);
  }

  @Test
  void significantShiftInsideNoiseThresholdIsNoChange() {
    double[] plus1 = {1.010, 1.011, 1.009, 1.010, 1.012, 1.008, 1.010, 1.011};
    Comparison c = single(metric(Direction.HIGHER, false, BASE, plus1));
    assertThat(c.pValue()).isLessThan(0.05);
    assertThat(c.verdict()).isEqualTo(Verdict.NO_CHANGE);
  }

  @Test
  void intervalStraddlingNoiseThresholdOnTheWorseSideIsInconclusiveNearThreshold() {
    double[] ratios = {1.016, 1.005, 1.03, 1.012, 1.02, 1.01, 1.018, 1.015};
    // lower is better: the high end is the worse end, and it reaches beyond +2%
    Comparison c = single(metric(Direction.LOWER, false, BASE, ratios));
    assertThat(c.ciLow()).isGreaterThan(0);
    assertThat(c.ciHigh()).isGreaterThan(0.02);
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.reasons()).containsExactly(Reasons.NEAR_THRESHOLD);
  }

  @Test
  void intervalStraddlingNoiseThresholdOnTheBetterSideHolds() {
    double[] ratios = {1.016, 1.005, 1.03, 1.012, 1.02, 1.01, 1.018, 1.015};
    Comparison c = single(metric(Direction.HIGHER, false, BASE, ratios));
    assertThat(c.ciLow()).isGreaterThan(0);
    assertThat(c.ciHigh()).isGreaterThan(0.02);
    assertThat(c.verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.reasons()).isEmpty();
  }

  @Test
  void noisyPairsAreInconclusiveUnderpowered() {
    double[] noisy = {0.8, 1.3, 0.9, 1.2, 1.1, 0.85, 1.25, 0.95};
    Comparison c = single(metric(Direction.HIGHER, false, BASE, noisy));
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.reasons()).containsExactly(Reasons.UNDERPOWERED);
  }

  @Test
  void failedBootsAreDroppedCountedAndNamedAsReason() {
    double[] base = {100, NAN, 99, 102, 100, 98, 101, NAN};
    double[] noisy = {0.8, 1.3, 0.9, 1.2, 1.1, 0.85, 1.25, 0.95};
    Comparison c = single(metric(Direction.HIGHER, false, base, noisy));
    assertThat(c.nPairs()).isEqualTo(6);
    assertThat(c.warnings()).contains("2 of 8 pairs dropped because a boot failed (NaN value)");
    assertThat(c.reasons()).containsExactly(Reasons.UNDERPOWERED, Reasons.BOOT_FAILURES);
  }

  @Test
  void steadyTrendOfDifferencesIsReportedAsDrift() {
    double[] base = new double[12];
    double[] ratios = new double[12];
    for (int i = 0; i < 12; i++) {
      base[i] = 100;
      ratios[i] = Math.exp(-0.11 + 0.02 * i);
    }
    Comparison c = single(metric(Direction.HIGHER, false, base, ratios));
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.reasons()).contains(Reasons.DRIFT);
    assertThat(c.warnings()).anyMatch(w -> w.startsWith("the paired differences trend"));
  }

  @Test
  void gatingMetricsGetHolmAdjustedPAndBonferroniInterval() {
    double[] flat = {1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0};
    MetricInput regressing = metric(Direction.HIGHER, true, BASE, MINUS_20);
    List<Comparison> out = VerdictEngine.comparePaired(List.of(regressing,
        metric(Direction.HIGHER, true, BASE, flat), metric(Direction.HIGHER, true, BASE, flat),
        metric(Direction.HIGHER, true, BASE, flat)), Policy.DEFAULT);
    Comparison gated = out.get(0);
    Comparison alone = single(metric(Direction.HIGHER, false, BASE, MINUS_20));
    assertThat(gated.pValue()).isCloseTo(2.0 / 256, within(1e-15));
    assertThat(gated.pAdjusted()).isCloseTo(4 * 2.0 / 256, within(1e-15));
    assertThat(alone.pAdjusted()).isEqualTo(alone.pValue());
    // 98.75% interval is [min d, max d] at n=8; the 95% one is [W(4), W(33)].
    assertThat(gated.ciLow()).isCloseTo(0.78 - 1, within(1e-12));
    assertThat(gated.ciHigh()).isCloseTo(0.82 - 1, within(1e-12));
    assertThat(alone.ciLow()).isGreaterThan(gated.ciLow());
    assertThat(gated.verdict()).isEqualTo(Verdict.REGRESSED);
  }

  @Test
  void centersAreMediansOfKeptValues() {
    Comparison c = single(metric(Direction.HIGHER, false, BASE, MINUS_20));
    assertThat(c.baselineCenter()).isEqualTo(100.0);
    assertThat(c.candidateCenter()).isCloseTo(80.0, within(1e-9));
  }

  @Test
  void emptyMetricListGivesEmptyResult() {
    assertThat(VerdictEngine.comparePaired(List.of(), Policy.DEFAULT)).isEmpty();
  }

  @Test
  void noUsablePairGivesNaNAndInconclusive() {
    Comparison c = single(new MetricInput("m", "ns", Direction.LOWER, true,
        new double[] {NAN, NAN}, new double[] {1, NAN}));
    assertThat(c.nPairs()).isZero();
    assertThat(c.change()).isNaN();
    assertThat(c.ciLow()).isNaN();
    assertThat(c.pValue()).isNaN();
    assertThat(c.pAdjusted()).isNaN();
    assertThat(c.baselineCenter()).isNaN();
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void singlePairGivesNaNWithWarningOnPairsNeeded() {
    Comparison c = single(new MetricInput("m", "ns", Direction.LOWER, false,
        new double[] {100}, new double[] {90}));
    assertThat(c.change()).isNaN();
    assertThat(c.pValue()).isNaN();
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.reasons()).containsExactly(Reasons.UNDERPOWERED);
    assertThat(c.warnings()).contains("n=1 usable pair; need at least 6 for a 95% interval");
  }

  @Test
  void allZeroDifferencesAreNoChangeWithZeroWidthInterval() {
    Comparison c = single(metric(Direction.HIGHER, false, BASE, new double[] {1, 1, 1, 1, 1,
        1, 1, 1}));
    assertThat(c.change()).isZero();
    assertThat(c.ciLow()).isZero();
    assertThat(c.ciHigh()).isZero();
    assertThat(c.pValue()).isEqualTo(1.0);
    assertThat(c.verdict()).isEqualTo(Verdict.NO_CHANGE);
  }

  @Test
  void identicalNonZeroDifferencesGiveThatValueAndZeroWidthInterval() {
    double[] base = {100, 100, 100, 100, 100, 100, 100, 100};
    double[] cand = {90, 90, 90, 90, 90, 90, 90, 90};
    Comparison c = single(new MetricInput("m", "ns", Direction.LOWER, false, base, cand));
    assertThat(c.change()).isCloseTo(-0.1, within(1e-12));
    assertThat(c.ciLow()).isEqualTo(c.change());
    assertThat(c.ciHigh()).isEqualTo(c.change());
    assertThat(c.verdict()).isEqualTo(Verdict.IMPROVED);
  }

  @Test
  void zeroNegativeAndInfiniteValuesAreDroppedWithWarning() {
    double[] base = {100, 0, 99, -5, 100, 98, 101, 100, 100, Double.POSITIVE_INFINITY};
    double[] cand = {80, 80, 79, 80, 82, 80, 78, 80, 81, 80};
    Comparison c = single(new MetricInput("m", "ns", Direction.LOWER, false, base, cand));
    assertThat(c.nPairs()).isEqualTo(7);
    assertThat(c.warnings()).contains("3 of 10 pairs dropped for a zero, negative or infinite"
        + " value (values must be finite and > 0)");
    assertThat(c.reasons()).isEmpty();
  }

  @Test
  void unequalArrayLengthsUseCommonPrefixWithWarning() {
    Comparison c = single(new MetricInput("m", "ns", Direction.LOWER, false,
        new double[] {1, 2, 3}, new double[] {1, 2}));
    assertThat(c.nPairs()).isEqualTo(2);
    assertThat(c.warnings()).contains("baseline has 3 values, candidate 2; only the first 2"
        + " pairs are used");
  }

  @Test
  void tooFewPairsStillReportEstimateAndP() {
    Comparison c = single(metric(Direction.HIGHER, false, new double[] {100, 100, 100},
        new double[] {0.9, 0.8, 0.85}));
    assertThat(c.change()).isCloseTo(-0.15, within(0.01));
    assertThat(c.pValue()).isCloseTo(0.25, within(1e-15));
    assertThat(c.ciLow()).isNaN();
    assertThat(c.warnings()).contains("n=3 usable pairs; need at least 6 for a 95% interval");
  }

  @Test
  void medianIgnoresNaN() {
    assertThat(VerdictEngine.median(new double[] {3, NAN, 1, 2})).isEqualTo(2.0);
    assertThat(VerdictEngine.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
  }

  @Test
  void medianOfNothingIsNaN() {
    assertThat(VerdictEngine.median(new double[] {NAN})).isNaN();
    assertThat(VerdictEngine.median(new double[0])).isNaN();
  }

  @Test
  void outOfRangePolicyFallsBackToDefaultWithWarning() {
    Comparison c = VerdictEngine.comparePaired(
        List.of(metric(Direction.HIGHER, false, BASE, MINUS_20)), new Policy(0.02, 5)).get(0);
    assertThat(c.warnings()).contains("policy alpha=5.0 is outside (0, 1); using 0.05");
    assertThat(c.verdict()).isEqualTo(Verdict.REGRESSED);
  }

  @Test
  void missingDirectionAssumesHigherWithWarning() {
    Comparison c = single(metric(null, false, BASE, MINUS_20));
    assertThat(c.better()).isEqualTo(Direction.HIGHER);
    assertThat(c.warnings()).contains("no direction given; assuming higher is better");
  }

  /**
   * Same sign and tie pattern as "ties" in reference_values.py (p by full sign-flip
   * enumeration; scipy's exact method gives 0.16015625 here). A swapped pair gives exactly -d.
   */
  @Test
  void pValueIsExactWhenPairsTie() {
    double[] base = {100, 110, 100, 100, 100, 100, 105, 100, 100, 100, 100, 130};
    double[] cand = {110, 100, 120, 120, 100, 130, 100, 110, 100, 140, 120, 100};
    Comparison c = single(new MetricInput("m", "ops/s", Direction.HIGHER, false, base, cand));
    assertThat(c.pValue()).isCloseTo(0.13671875, within(1e-12));
  }

  @Test
  void gatingMetricWithTooFewPairsNamesTheBonferroniLevel() {
    double[] six = {100, 101, 99, 102, 100, 98};
    MetricInput a = metric(Direction.HIGHER, true, six, new double[] {1, 1, 1, 1, 1, 1.01});
    List<Comparison> out = VerdictEngine.comparePaired(List.of(a, a, a, a), Policy.DEFAULT);
    assertThat(out.get(0).warnings())
        .contains("n=6 usable pairs; need at least 8 for a 98.75% interval");
    assertThat(out.get(0).reasons()).contains(Reasons.UNDERPOWERED);
  }
}
