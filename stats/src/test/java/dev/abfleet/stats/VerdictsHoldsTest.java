package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The non-inferiority verdict: the interval's worse end within -threshold. */
class VerdictsHoldsTest {
  private static final double DELTA = 0.02;

  @Test
  void holdsWhenTheLowEndOfAHigherIsBetterIntervalIsWithinTheThreshold() {
    // +1.0% [-1.5%, +4.0%]: not inside ±2% (no equivalence), but nothing worse than -2%
    assertThat(Verdicts.decide(Direction.HIGHER, 0.01, -0.015, 0.04, false, DELTA))
        .isEqualTo(Verdict.HOLDS);
  }

  @Test
  void holdsWhenTheHighEndOfALowerIsBetterIntervalIsWithinTheThreshold() {
    // boot time -1.0% [-4.0%, +1.5%]: the worse end is the high end
    assertThat(Verdicts.decide(Direction.LOWER, -0.01, -0.04, 0.015, false, DELTA))
        .isEqualTo(Verdict.HOLDS);
  }

  @Test
  void isInconclusiveWhenTheWorseEndReachesBeyondTheThreshold() {
    assertThat(Verdicts.decide(Direction.HIGHER, 0.01, -0.025, 0.04, false, DELTA))
        .isEqualTo(Verdict.INCONCLUSIVE);
    // the same interval read lower-is-better: the worse end +4% is beyond +2%
    assertThat(Verdicts.decide(Direction.LOWER, 0.01, -0.015, 0.04, false, DELTA))
        .isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void equivalenceStaysNoChangeAndASignificantLargeGainStaysImproved() {
    assertThat(Verdicts.decide(Direction.HIGHER, 0.0, -0.015, 0.018, false, DELTA))
        .isEqualTo(Verdict.NO_CHANGE);
    assertThat(Verdicts.decide(Direction.HIGHER, 0.10, 0.008, 0.178, true, DELTA))
        .isEqualTo(Verdict.IMPROVED);
  }

  @Test
  void aSignificantGainBelowTheThresholdHolds() {
    // +1.5% [+0.5%, +3.0%]: significant but within the threshold, and not inside ±2%
    assertThat(Verdicts.decide(Direction.HIGHER, 0.015, 0.005, 0.03, true, DELTA))
        .isEqualTo(Verdict.HOLDS);
  }

  @Test
  void aSignificantSmallLossThatMayExceedTheThresholdIsInconclusive() {
    assertThat(Verdicts.decide(Direction.HIGHER, -0.015, -0.03, -0.005, true, DELTA))
        .isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void withoutAnIntervalNothingHolds() {
    assertThat(Verdicts.decide(Direction.HIGHER, 0.01, Double.NaN, Double.NaN, false, DELTA))
        .isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void holdsIsOnTheWireAndPassesTheGate() {
    assertThat(Verdict.HOLDS.wire()).isEqualTo("holds");
    assertThat(Verdict.HOLDS.passes()).isTrue();
    assertThat(Verdict.INCONCLUSIVE.passes()).isFalse();
    assertThat(Verdict.REGRESSED.passes()).isFalse();
  }
}
