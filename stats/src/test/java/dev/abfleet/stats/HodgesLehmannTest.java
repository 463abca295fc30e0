package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;

/**
 * Estimates are the median of the Walsh averages computed with numpy; intervals come from a
 * brute-force inversion of scipy's signed-rank test over all shifts (reference_values.py).
 */
class HodgesLehmannTest {
  private static final double EXACT = 1e-7; // percent, i.e. 1e-9 relative

  @Test
  void estimateIsMedianOfWalshAveragesAtTwelvePairs() {
    double hl = HodgesLehmann.estimate(HodgesLehmann.walshAverages(SignedRankTest.D12));
    assertThat(hl).isCloseTo(0.025534749999999995, withinPercentage(EXACT));
  }

  @Test
  void estimateIsMedianOfWalshAveragesAtEightPairs() {
    double hl = HodgesLehmann.estimate(HodgesLehmann.walshAverages(SignedRankTest.D8));
    assertThat(hl).isCloseTo(0.06529525, withinPercentage(EXACT));
  }

  @Test
  void ninetyFivePercentIntervalMatchesExactTestInversion() {
    double[] ci = HodgesLehmann.interval(HodgesLehmann.walshAverages(SignedRankTest.D12), 12,
        0.05);
    assertThat(ci[0]).isCloseTo(-0.066494, withinPercentage(EXACT));
    assertThat(ci[1]).isCloseTo(0.141266, withinPercentage(EXACT));
  }

  @Test
  void bonferroniLevelIntervalMatchesExactTestInversion() {
    double[] ci = HodgesLehmann.interval(HodgesLehmann.walshAverages(SignedRankTest.D12), 12,
        0.0125);
    assertThat(ci[0]).isCloseTo(-0.08938, withinPercentage(EXACT));
    assertThat(ci[1]).isCloseTo(0.19351749999999998, withinPercentage(EXACT));
  }

  @Test
  void largeSampleIntervalMatchesApproximateTestInversion() {
    double[] ci = HodgesLehmann.interval(HodgesLehmann.walshAverages(SignedRankTest.D60), 60,
        0.05);
    assertThat(ci[0]).isCloseTo(-0.0058625, withinPercentage(EXACT));
    assertThat(ci[1]).isCloseTo(0.0464985, withinPercentage(EXACT));
  }

  @Test
  void noNinetyFivePercentIntervalBelowSixPairs() {
    assertThat(HodgesLehmann.interval(HodgesLehmann.walshAverages(SignedRankTest.D5), 5, 0.05))
        .isNull();
    assertThat(HodgesLehmann.minPairsForInterval(0.05)).isEqualTo(6);
  }

  @Test
  void bonferroniLevelForFourMetricsNeedsEightPairs() {
    assertThat(HodgesLehmann.minPairsForInterval(0.0125)).isEqualTo(8);
  }
}
