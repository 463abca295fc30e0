package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;

/** Reference values from src/test/python/reference_values.py (scipy 1.17.1). */
class SignedRankTest {
  private static final double EXACT = 1e-7; // percent, i.e. 1e-9 relative
  private static final double APPROX = 1e-4; // percent, i.e. 1e-6 relative

  static final double[] D5 = {0.084558, 0.132162, 0.083044, -0.080316, 0.140536};
  static final double[] D8 =
      {0.068905, -0.002275, 0.008694, -0.194147, 0.229971, 0.164417, 0.017458, 0.127381};
  static final double[] D12 = {0.254092, -0.205567, 0.09181, -0.006777, 0.004735, 0.02844,
      -0.151999, 0.026807, -0.036521, 0.3823, 0.072579, 0.014737};
  static final double[] D60 = {-0.035179, 0.012528, 0.196372, 0.095915, -0.13414, 0.02948,
      -0.032346, 0.044863, -0.130819, 0.054177, 0.053538, 0.187563, 0.061665, 0.081055,
      -0.119312, 0.255273, -0.161565, 0.14018, -0.00299, -0.058065, -0.035629, -0.037201,
      0.068019, 0.018994, 0.178257, -0.15296, 0.029692, -0.059206, 0.107587, -0.181806,
      -0.004369, 0.051017, -0.118427, 0.128522, 0.047871, 0.130686, 0.125918, -0.067985,
      -0.04978, 0.009667, 0.104796, 0.115097, -0.040968, -0.03072, -0.049782, -0.028424,
      0.006208, 0.016818, 0.235811, -0.02064, 0.001128, 0.075858, -0.065307, -0.006863,
      0.031332, 0.107415, -0.101601, 0.167147, -0.005246, 0.046942};
  static final double[] D60_TIES = {-0.04, 0.01, 0.2, 0.1, -0.13, 0.03, -0.03, 0.04, -0.13,
      0.05, 0.05, 0.19, 0.06, 0.08, -0.12, 0.26, -0.16, 0.14, -0.0, -0.06, -0.04, -0.04, 0.07,
      0.02, 0.18, -0.15, 0.03, -0.06, 0.11, -0.18, -0.0, 0.05, -0.12, 0.13, 0.05, 0.13, 0.13,
      -0.07, -0.05, 0.01, 0.1, 0.12, -0.04, -0.03, -0.05, -0.03, 0.01, 0.02, 0.24, -0.02, 0.0,
      0.08, -0.07, -0.01, 0.03, 0.11, -0.1, 0.17, -0.01, 0.05};

  @Test
  void exactPAtFivePairsMatchesScipy() {
    assertThat(SignedRank.twoSidedP(D5)).isCloseTo(0.125, withinPercentage(EXACT));
  }

  @Test
  void exactPAtEightPairsMatchesScipy() {
    assertThat(SignedRank.twoSidedP(D8)).isCloseTo(0.1953125, withinPercentage(EXACT));
  }

  @Test
  void exactPAtTwelvePairsMatchesScipy() {
    assertThat(SignedRank.twoSidedP(D12)).isCloseTo(0.38037109375, withinPercentage(EXACT));
  }

  @Test
  void exactPWithTiesAndZerosMatchesFullSignFlipEnumeration() {
    double[] ties = {0.1, -0.1, 0.2, 0.2, 0.0, 0.3, -0.05, 0.1, 0.0, 0.4, 0.2, -0.3};
    assertThat(SignedRank.twoSidedP(ties)).isCloseTo(0.13671875, withinPercentage(EXACT));
  }

  @Test
  void exactPWithHeavyTiesMatchesFullSignFlipEnumeration() {
    double[] ties = {0.5, 0.5, 0.5, -0.5, 1.0, 1.0, 0.0};
    assertThat(SignedRank.twoSidedP(ties)).isCloseTo(0.15625, withinPercentage(EXACT));
  }

  @Test
  void normalApproximationAtSixtyPairsMatchesScipy() {
    assertThat(SignedRank.twoSidedP(D60))
        .isCloseTo(0.14193051402700274, withinPercentage(APPROX));
  }

  @Test
  void normalApproximationWithTiesAndZerosMatchesScipy() {
    assertThat(SignedRank.twoSidedP(D60_TIES))
        .isCloseTo(0.13707426430437825, withinPercentage(APPROX));
  }

  @Test
  void allZeroDifferencesGivePOfOne() {
    assertThat(SignedRank.twoSidedP(new double[] {0, 0, 0, 0})).isEqualTo(1.0);
  }

  @Test
  void allSameSignGivesSmallestAchievableP() {
    assertThat(SignedRank.twoSidedP(new double[] {-1, -2, -3, -4, -5, -6, -7, -8}))
        .isCloseTo(2.0 / 256, within(1e-15));
  }

  @Test
  void doubledMidRanksAreIntegersForTies() {
    assertThat(SignedRank.doubledMidRanks(new double[] {0.2, -0.1, 0.1, 0.3}))
        .containsExactly(6, 3, 3, 8);
  }
}
