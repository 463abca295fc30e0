package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;

/**
 * Reference values from src/test/python/adaptive_signed_rank_reference.py (numpy 2.4.6, scipy
 * 1.17.1): p-values by enumerating all 2^m sign flips (m &lt;= 16), by exact convolution and
 * scipy at m = 20, by the normal approximation at m = 120; intervals by judging every gap
 * between Walsh averages with its own cap.
 */
class AdaptiveSignedRankTest {
  private static final double EXACT = 1e-7; // percent, i.e. 1e-9 relative
  private static final double ENDPOINT = 1e-12; // Walsh averages, the same sums in both

  static final double[] D10 = {
      0.02334, -0.012632, -0.049813, 0.043279, 0.010681, 0.02836, 0.042279, 0.073696, 0.010824,
      0.066544};
  static final double[] D12_SLOW = {
      0.028828, 0.008356, 0.153101, 0.045618, 0.010616, 0.099638, -0.027078, 0.004482, 0.074409,
      0.033908, 0.31, -0.27};
  static final double[] D12_MODERATE = {
      0.02334, -0.012632, -0.049813, 0.043279, 0.010681, 0.02836, 0.042279, 0.073696, 0.010824,
      0.066544, -0.03, 0.15};
  static final double[] D14 = {
      0.039076, 0.147804, 0.092353, -0.071093, -0.003109, -0.003289, 0.02257, -0.006859,
      -0.052398, 0.068427, 0.053239, 0.088167, 0.12, -0.13};
  static final double[] D16_SLOW = {
      -0.094178, 0.060074, 0.022455, 0.062295, 0.027895, -0.042724, 0.120049, 0.082952, 0.05397,
      0.0862, 0.030728, -0.004259, 0.005408, 0.068602, 0.35, -0.22};
  static final double[] TIES = {
      0.1, -0.1, 0.2, 0.2, 0.0, 0.3, -0.05, 0.1, 0.0, 0.4, 0.2, -0.3};
  static final double[] HEAVY_TIES = {
      0.5, 0.5, 0.5, -0.5, 1.0, 1.0, 0.0};
  static final double[] D20 = {
      0.09971, 0.021252, -0.005139, 0.019685, 0.054314, 0.07075, -0.047666, 0.001035, 0.039056,
      0.016361, 0.075896, 0.029131, -0.020232, -0.00715, -0.020864, 0.052987, 0.023679, -0.044264,
      0.064123, -0.074313};
  static final double[] D120 = {
      -0.092954, 0.025624, 0.026713, 0.076978, -0.022146, 0.025039, 0.14325, 0.019719, 0.025948,
      -0.012587, 0.04436, 0.032157, 0.024761, -0.044468, -0.023097, 0.033594, 0.076641, -0.005906,
      0.067745, -0.057346, -0.00404, 0.035989, 0.020425, 0.123037, -0.004667, -0.003226,
      -0.126115, -0.014138, -0.018196, 0.053167, -0.006968, 0.010268, 0.111982, 0.008227,
      -0.065953, 0.015589, -0.034422, -0.006964, -0.045138, 0.003641, -0.050256, 0.041501,
      0.037357, -0.020767, -0.046652, 0.039968, -0.021713, 0.09422, 0.032132, 0.103723, 0.050767,
      0.026378, 0.034994, 0.011369, 0.008776, 0.00235, 0.035048, 0.057119, -0.059057, 0.110395,
      0.03868, -0.049286, 0.005533, 0.048241, -0.011695, 0.037907, 8.8e-05, 0.006448, -0.001452,
      0.021641, -0.018203, -0.1069, -0.0307, 0.004429, 0.075785, 0.0107, 0.0644, -0.06841,
      -0.054662, 0.037059, -0.013373, 0.052916, 0.095955, 0.074471, 0.022074, 0.062077, -0.00858,
      -0.006874, 0.058476, 0.036798, -0.013088, -0.036186, -0.082511, -0.034878, 0.024808,
      0.014775, -0.107304, -0.016707, -0.016214, 0.022708, 0.008475, 0.003539, 0.071721,
      -0.030585, 0.009822, 0.039071, 0.092767, -0.01001, -0.013202, 0.110497, 0.313039, -0.096682,
      -0.219852, 0.159876, -0.052194, -0.278084, -0.76752, 0.301636, -0.504787, 0.393586};

  @Test
  void usesWilcoxonScoresWhenTailsAreNormalOrLighter() {
    assertThat(AdaptiveSignedRank.tailWeight(D10)).isCloseTo(2.038910, within(1e-6));
    assertThat(AdaptiveSignedRank.cap(10, AdaptiveSignedRank.tailWeight(D10))).isEqualTo(10);
  }

  @Test
  void boundsTheTopQuarterBetweenNormalAndLaplaceTails() {
    double q = AdaptiveSignedRank.tailWeight(D12_MODERATE);
    assertThat(q).isCloseTo(3.042567, within(1e-6));
    assertThat(AdaptiveSignedRank.cap(12, q)).isEqualTo(9);
  }

  @Test
  void boundsTheTopHalfWithTailsHeavierThanLaplace() {
    double q = AdaptiveSignedRank.tailWeight(D16_SLOW);
    assertThat(q).isCloseTo(3.619192, within(1e-6));
    assertThat(AdaptiveSignedRank.cap(16, q)).isEqualTo(8);
  }

  @Test
  void exactPWithWilcoxonScoresMatchesEnumeration() {
    assertThat(AdaptiveSignedRank.twoSidedP(D10)).isCloseTo(0.10546875, withinPercentage(EXACT));
    assertThat(AdaptiveSignedRank.twoSidedP(D14)).isCloseTo(0.267578125, withinPercentage(EXACT));
  }

  @Test
  void exactPWithHalfBoundedScoresMatchesEnumeration() {
    assertThat(AdaptiveSignedRank.twoSidedP(D12_SLOW))
        .isCloseTo(0.0361328125, withinPercentage(EXACT));
    assertThat(AdaptiveSignedRank.twoSidedP(D16_SLOW))
        .isCloseTo(0.045440673828125, withinPercentage(EXACT));
  }

  @Test
  void exactPWithQuarterBoundedScoresMatchesEnumeration() {
    assertThat(AdaptiveSignedRank.twoSidedP(D12_MODERATE))
        .isCloseTo(0.13134765625, withinPercentage(EXACT));
  }

  @Test
  void exactPWithTiesAndZerosMatchesEnumeration() {
    assertThat(AdaptiveSignedRank.twoSidedP(TIES)).isCloseTo(0.13671875, withinPercentage(EXACT));
    assertThat(AdaptiveSignedRank.twoSidedP(HEAVY_TIES))
        .isCloseTo(0.15625, withinPercentage(EXACT));
  }

  @Test
  void exactPAtSixteenPairsMatchesEnumeration() {
    double[] d16 = java.util.Arrays.copyOf(D20, 16);
    assertThat(AdaptiveSignedRank.twoSidedP(d16))
        .isCloseTo(0.0443115234375, withinPercentage(EXACT));
  }

  @Test
  void exactPWithWilcoxonScoresMatchesScipyAtTwentyPairs() {
    assertThat(AdaptiveSignedRank.twoSidedP(D20))
        .isCloseTo(0.10539817810058594, withinPercentage(EXACT))
        .isCloseTo(SignedRank.twoSidedP(D20), withinPercentage(EXACT));
  }

  @Test
  void normalApproximationAboveOneHundredPairsMatchesReference() {
    double p = AdaptiveSignedRank.twoSidedP(D120);
    assertThat(p).isCloseTo(0.029614750628006645, withinPercentage(1e-6));
    // the exact conditional p is 0.0293488; the approximation is within 1% of it here
    assertThat(p).isCloseTo(0.029348802307436216, withinPercentage(1.0));
  }

  @Test
  void allZeroDifferencesGivePOne() {
    assertThat(AdaptiveSignedRank.twoSidedP(new double[] {0, 0, 0})).isEqualTo(1.0);
  }

  @Test
  void intervalsMatchGapByGapInversion() {
    assertInterval(D10, 0.05, -0.0032670000000000025, 0.051028);
    assertInterval(D10, 0.0125, -0.0194945, 0.0584875);
    assertInterval(D12_SLOW, 0.05, 0.0034149999999999996, 0.09350449999999999);
    assertInterval(D12_SLOW, 0.0125, -0.09779550000000001, 0.159178);
    assertInterval(D12_MODERATE, 0.05, -0.0033299999999999996, 0.06);
    assertInterval(D12_MODERATE, 0.0125, -0.012632, 0.0803405);
    assertInterval(D14, 0.05, -0.0188235, 0.0723475);
    assertInterval(D14, 0.0125, -0.037191, 0.088167);
    assertInterval(D16_SLOW, 0.05, 0.0005744999999999999, 0.07262350000000001);
    assertInterval(D16_SLOW, 0.0125, -0.031725, 0.084576);
  }

  @Test
  void intervalWithRepeatedValuesAndZerosMatchesInversion() {
    assertInterval(TIES, 0.05, -0.04999999999999999, 0.2);
    assertInterval(TIES, 0.0125, -0.07500000000000001, 0.25);
  }

  @Test
  void noIntervalWhenTooFewPairsForTheLevel() {
    assertThat(AdaptiveInterval.of(new double[] {0.1, 0.2, -0.05, 0.3, 0.02}).interval(0.05))
        .isNull();
  }

  private static void assertInterval(double[] d, double alpha, double low, double high) {
    double[] ci = AdaptiveInterval.of(d).interval(alpha);
    assertThat(ci).as("interval at alpha=%s", alpha).isNotNull();
    assertThat(ci[0]).as("low at alpha=%s", alpha).isCloseTo(low, within(ENDPOINT));
    assertThat(ci[1]).as("high at alpha=%s", alpha).isCloseTo(high, within(ENDPOINT));
  }
}
