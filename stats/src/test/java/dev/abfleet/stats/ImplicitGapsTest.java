package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/**
 * Reference: {@link ListedGaps}, which lists every distinct Walsh average and scans the gaps
 * (the engine's inversion up to 100 pairs, correct at any n). Above 100 pairs the implicit
 * search must find the same gaps, so the endpoints are the same Walsh averages, bit for bit.
 * And with light tails, where the cap is Wilcoxon's at every shift, scipy's signed-rank test
 * inverted gap by gap (src/test/python/reference_values.py).
 */
class ImplicitGapsTest {
  private static final double[] LEVELS = {0.05, 0.0125};
  private static final double ENDPOINT = 1e-12; // Walsh averages, the same sums in both

  static final double[] D150 = {
      0.000235, 0.033196, 0.050356, -0.028608, 0.058383, 0.032753, 0.059149, 0.033621, 0.0781,
      -0.026888, 0.108805, 0.080119, -0.009998, 0.053008, 0.042238, -0.067288, 0.049761,
      -0.00927, 0.007499, -0.010119, -0.001404, 0.023587, 0.024836, -0.057958, 0.006565,
      -0.047241, -0.043539, 0.002652, 0.062765, 0.051543, -0.010233, -0.015521, -0.02137,
      0.027137, 0.066833, 0.020902, 0.054638, 0.03577, 0.095209, -0.080335, -0.086552, 0.010078,
      0.051827, -0.000527, 0.041289, -0.038677, -0.042969, -0.015829, 0.062066, 0.054818,
      -0.015663, 0.029056, -0.012379, 0.021003, -0.035715, 0.017672, -0.016788, 0.017782,
      -0.012602, -0.021087, 0.025672, 0.00311, 0.021084, -0.000954, 0.050687, -0.020784,
      0.058438, 0.086599, 0.006556, 0.107262, 0.121485, 0.042154, -0.04788, -0.060785, 0.011211,
      0.108796, 0.048727, 0.057902, 0.007454, -0.017207, 0.038596, -0.035439, 0.010153,
      0.045558, 0.021797, 0.046228, -0.002299, 0.049909, 0.040233, -0.062485, -0.032113,
      -0.016174, 0.052779, 0.035104, 0.034149, 0.028647, 0.051824, 0.067267, -0.007736,
      -0.059546, 0.053366, 0.009529, 0.02244, 0.01131, -0.035628, -0.055533, 0.068214, 0.074655,
      0.066562, 0.030412, 0.033426, -0.000946, 0.023401, -0.000142, -0.007184, 0.03026,
      0.104905, -0.074177, 0.050076, 0.053783, -0.04072, 0.035672, 0.025079, -0.003199,
      -0.004816, -0.050309, 0.105359, 0.137378, 0.099319, 0.00561, 0.034284, 0.03886, -0.020647,
      0.007074, 0.046662, -0.001081, -0.067988, -0.043401, 0.032749, 0.003147, 0.005085,
      0.087799, 0.024239, -0.015872, 0.016752, 0.127896, -0.036323, 0.109347, 0.09208, 0.011995};

  @Test
  void estimateAndIntervalAtOneHundredFiftyPairsMatchScipyWilcoxonInversion() {
    assertThat(HodgesLehmann.walshMedian(D150)).isCloseTo(0.018868, within(ENDPOINT));
    AdaptiveInterval inversion = AdaptiveInterval.of(D150);
    assertThat(inversion).isInstanceOf(ImplicitGaps.class);
    double[] ci = inversion.interval(0.05);
    assertThat(ci[0]).isCloseTo(0.011253, within(ENDPOINT));
    assertThat(ci[1]).isCloseTo(0.0263965, within(ENDPOINT));
  }

  @Test
  void intervalEqualsListedInversionWhenTheCapChangesInsideIt() {
    // Q crosses Hogg's 2.6 between these shifts: Wilcoxon's scores on one side, the top
    // quarter bounded on the other, and the 98.75% interval reaches across
    assertThat(AdaptiveSignedRank.tailWeight(shift(D150, 0.0087))).isGreaterThan(2.6);
    assertThat(AdaptiveSignedRank.tailWeight(shift(D150, 0.011))).isLessThan(2.6);
    double[] ci = new ImplicitGaps(D150).interval(0.0125);
    assertThat(ci).isEqualTo(new ListedGaps(D150).interval(0.0125));
    assertThat(ci[0]).isLessThan(0.0087);
  }

  @Test
  void intervalEqualsListedInversionForNormalDifferences() {
    SplittableRandom rng = new SplittableRandom(21);
    for (int n : new int[] {101, 200, 500, 2_000}) {
      assertSameIntervals(sample(n, () -> 0.02 + 0.05 * rng.nextGaussian()));
    }
  }

  @Test
  void intervalEqualsListedInversionWithSlowBootsOnEitherSide() {
    SplittableRandom rng = new SplittableRandom(22);
    DoubleSupplier slow = () -> 0.02 + 0.05 * rng.nextGaussian()
        + (rng.nextDouble() < 0.1 ? (rng.nextBoolean() ? 1 : -1) * rng.nextDouble(0.2, 0.4) : 0);
    for (int n : new int[] {101, 200, 500}) {
      assertSameIntervals(sample(n, slow));
    }
  }

  @Test
  void intervalEqualsListedInversionForLaplaceDifferences() {
    SplittableRandom rng = new SplittableRandom(23);
    DoubleSupplier laplace = () -> 0.03
        + 0.04 * (rng.nextBoolean() ? 1 : -1) * Math.log(1 - rng.nextDouble());
    for (int n : new int[] {101, 200, 500}) {
      assertSameIntervals(sample(n, laplace));
    }
  }

  @Test
  void intervalEqualsListedInversionAcrossManySmallSamples() {
    SplittableRandom rng = new SplittableRandom(24);
    for (int trial = 0; trial < 60; trial++) {
      double heavy = rng.nextDouble(0.0, 0.3); // share of slow boots: caps of every band
      int n = 101 + rng.nextInt(150);
      assertSameIntervals(sample(n, () -> 0.01 + 0.05 * rng.nextGaussian()
          + (rng.nextDouble() < heavy ? rng.nextDouble(-0.4, 0.5) : 0)));
    }
  }

  @Test
  void estimateEqualsListedInversionWhenSlowBootsSitOnOneSide() {
    SplittableRandom rng = new SplittableRandom(25);
    for (int trial = 0; trial < 5; trial++) {
      // candidate-only slow boots: skewed d, where the test's own estimate matters
      double[] d = sample(110 + 20 * trial, () -> 0.01 + 0.04 * rng.nextGaussian()
          + (rng.nextDouble() < 0.15 ? rng.nextDouble(0.2, 0.6) : 0));
      assertThat(new ImplicitGaps(d).estimate()).as("n=%d", d.length)
          .isEqualTo(new ListedGaps(d).estimate());
    }
  }

  @Test
  void estimateEqualsListedInversionForSymmetricDifferences() {
    SplittableRandom rng = new SplittableRandom(26);
    for (int n : new int[] {101, 160}) {
      double[] d = sample(n, () -> 0.02 + 0.05 * rng.nextGaussian());
      assertThat(new ImplicitGaps(d).estimate()).isEqualTo(new ListedGaps(d).estimate());
    }
  }

  @Test
  void intervalEqualsListedInversionWithRepeatedValues() {
    SplittableRandom rng = new SplittableRandom(27);
    for (int n : new int[] {101, 200, 500}) {
      // values on a 0.005 grid: many ties among d, and zeros
      double[] d = sample(n, () -> Math.rint((0.01 + 0.04 * rng.nextGaussian()) * 200) / 200);
      assertSameIntervals(d);
    }
  }

  @Test
  void allEqualDifferencesGiveThePointInterval() {
    double[] d = new double[150];
    java.util.Arrays.fill(d, 0.02);
    assertThat(new ImplicitGaps(d).interval(0.05)).containsExactly(0.02, 0.02);
    assertThat(new ImplicitGaps(d).estimate()).isEqualTo(0.02);
  }

  private static void assertSameIntervals(double[] d) {
    ImplicitGaps implicit = new ImplicitGaps(d);
    ListedGaps listed = new ListedGaps(d);
    for (double alpha : LEVELS) {
      assertThat(implicit.interval(alpha)).as("n=%d alpha=%s", d.length, alpha)
          .isEqualTo(listed.interval(alpha));
    }
  }

  private static double[] shift(double[] d, double theta) {
    return java.util.Arrays.stream(d).map(x -> x - theta).toArray();
  }

  private static double[] sample(int n, DoubleSupplier draw) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = draw.getAsDouble();
    }
    return d;
  }
}
