package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.hipparchus.exception.MathIllegalArgumentException;
import org.hipparchus.stat.inference.MannWhitneyUTest;
import org.junit.jupiter.api.Test;

/**
 * Why MannWhitney keeps its own exact distribution: what Hipparchus 4.0.3's MannWhitneyUTest
 * answers on the cases in MannWhitney's Javadoc, against the exact permutation p (brute-force
 * enumeration of every choice of y's positions, equal to scipy.stats.permutation_test with
 * n_resamples=inf; scipy 1.17.1). If a Hipparchus upgrade fixes them, these fail and the library
 * can take over the exact path.
 */
class MannWhitneyHipparchusTest {
  private static final double EXACT = 1e-7; // percent

  private static final double[] TIED_X = {1, 2, 2, 3, 3, 3, 5};
  private static final double[] TIED_Y = {2, 3, 4, 5, 5, 6};
  private static final double TIED_PERMUTATION_P = 0.11888111888111888;

  // U = 6 = n1 n2 / 2: the observed sum is the centre of the null distribution.
  private static final double[] CENTRE_X = {1, 4, 7};
  private static final double[] CENTRE_Y = {2, 3, 5, 6};

  @Test
  void withTiesHipparchusHasNoExactTestAndItsDefaultIsTheApproximation() {
    MannWhitneyUTest hipparchus = new MannWhitneyUTest();

    assertThatThrownBy(() -> hipparchus.mannWhitneyUTest(TIED_X, TIED_Y, true))
        .isInstanceOf(MathIllegalArgumentException.class);
    // scipy mannwhitneyu(method='asymptotic'): 0.10700858970919751
    assertThat(hipparchus.mannWhitneyUTest(TIED_X, TIED_Y))
        .isCloseTo(0.10700858970919751, withinPercentage(1e-9));
    assertThat(MannWhitney.twoSidedP(TIED_X, TIED_Y))
        .isCloseTo(TIED_PERMUTATION_P, withinPercentage(EXACT));
  }

  @Test
  void withoutTiesHipparchusExactPIsWrongAtTheCentre() {
    // scipy mannwhitneyu(method='exact') and the enumeration: 1.0 (twice a tail holding the centre)
    assertThat(new MannWhitneyUTest().mannWhitneyUTest(CENTRE_X, CENTRE_Y, true))
        .isCloseTo(0.05714285714285714, withinPercentage(1e-9));
    assertThat(MannWhitney.twoSidedP(CENTRE_X, CENTRE_Y)).isEqualTo(1.0);
  }

  @Test
  void withoutTiesAwayFromTheCentreHipparchusAndOursAgree() {
    double hipparchus = new MannWhitneyUTest().mannWhitneyUTest(MannWhitneyTest.X7, MannWhitneyTest.Y8, true);

    assertThat(hipparchus).isCloseTo(0.1205905205905206, withinPercentage(EXACT));
    assertThat(MannWhitney.twoSidedP(MannWhitneyTest.X7, MannWhitneyTest.Y8))
        .isCloseTo(hipparchus, withinPercentage(EXACT));
  }

  @Test
  void approximationTiesNegativeZeroWithZeroAsScipyDoes() {
    double[] x = {-0.0, -0.0, 1, 2};
    double[] y = {0.0, 0.0, 3, 4, 5};

    // scipy mannwhitneyu(x, y, method='asymptotic'), where -0.0 == 0.0: 0.3705503184353732
    assertThat(MannWhitney.twoSidedP(x, y, 0)).isCloseTo(0.3705503184353732, withinPercentage(1e-9));
    assertThat(new MannWhitneyUTest().mannWhitneyUTest(x, y, false))
        .isNotCloseTo(0.3705503184353732, withinPercentage(1));
  }
}
