package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;

/** Reference values from src/test/python/reference_values.py (scipy 1.17.1). */
class MannWhitneyTest {
  private static final double EXACT = 1e-7; // percent
  private static final double APPROX = 1e-4; // percent

  static final double[] X7 =
      {0.003419, 0.135975, 0.122472, -0.051031, -0.029797, -0.052738, 0.056973};
  static final double[] Y8 =
      {0.099317, 0.204614, 0.174159, 0.172396, 0.261878, -0.020556, 0.037304, -0.032066};
  static final double[] X30 = {0.182676, -0.307833, 0.095806, 0.006964, 0.131825, 0.038563,
      0.182726, 0.003174, -0.051623, 0.058048, 0.043211, -0.035684, -0.02473, 0.071944,
      0.070432, -0.049393, -0.036771, -0.180679, 0.167921, -0.022429, 0.133728, 0.041747,
      0.194396, 0.153711, 0.03183, 0.148076, -0.095012, 0.125862, -0.148042, 0.034324};
  static final double[] Y35 = {0.109552, -0.057947, -0.117349, -0.252497, 0.004677, 0.164761,
      0.043307, 0.091184, 0.142324, -0.048215, 0.305229, -0.047691, 0.077355, 0.313958,
      0.028575, 0.051429, -0.011188, 0.073453, -0.172668, -0.024681, 0.209409, 0.061133,
      0.01596, 0.077293, 0.081461, 0.05521, 0.097859, -0.12596, 0.099126, -0.027353, 0.11858,
      0.037875, -0.059818, 0.032787, -0.060708};

  private static double[] round2(double[] v) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = Math.round(v[i] * 100) / 100.0;
    }
    return out;
  }

  @Test
  void exactPWithoutTiesMatchesScipy() {
    assertThat(MannWhitney.twoSidedP(X7, Y8))
        .isCloseTo(0.1205905205905206, withinPercentage(EXACT));
  }

  @Test
  void exactPWithTiesMatchesFullEnumeration() {
    double[] x = {1, 2, 2, 3, 3, 3, 5};
    double[] y = {2, 3, 4, 5, 5, 6};
    assertThat(MannWhitney.twoSidedP(x, y))
        .isCloseTo(0.11888111888111888, withinPercentage(EXACT));
  }

  @Test
  void normalApproximationAboveFortyValuesMatchesScipy() {
    assertThat(MannWhitney.twoSidedP(X30, Y35))
        .isCloseTo(0.9005149828011407, withinPercentage(APPROX));
  }

  @Test
  void normalApproximationWithTiesMatchesScipy() {
    assertThat(MannWhitney.twoSidedP(round2(X30), round2(Y35)))
        .isCloseTo(0.8640633196350002, withinPercentage(APPROX));
  }

  @Test
  void twoSampleEstimateIsMedianOfAllDifferences() {
    assertThat(HodgesLehmann.estimate(HodgesLehmann.shiftDifferences(X7, Y8)))
        .isCloseTo(0.0852385, withinPercentage(EXACT));
  }

  @Test
  void smallSampleIntervalMatchesExactTestInversion() {
    double[] ci = HodgesLehmann.shiftInterval(HodgesLehmann.shiftDifferences(X7, Y8), 7, 8,
        0.05);
    assertThat(ci[0]).isCloseTo(-0.023975, withinPercentage(EXACT));
    assertThat(ci[1]).isCloseTo(0.223427, withinPercentage(EXACT));
  }

  @Test
  void largeSampleIntervalMatchesApproximateTestInversion() {
    double[] ci = HodgesLehmann.shiftInterval(HodgesLehmann.shiftDifferences(X30, Y35), 30, 35,
        0.05);
    assertThat(ci[0]).isCloseTo(-0.063019, withinPercentage(EXACT));
    assertThat(ci[1]).isCloseTo(0.052621, withinPercentage(EXACT));
  }

  @Test
  void noIntervalWhenSamplesAreTooSmallForTheLevel() {
    assertThat(MannWhitney.intervalIndex(2, 2, 0.05)).isZero();
  }
}
