package dev.abfleet.cli.gitbisect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ProbeClassTest {

  @Test
  void aProbeWhoseBetterEndIsStillWorseIsBad() {
    assertThat(ProbeClass.of(-0.60, -0.50, -0.55)).isEqualTo(ProbeClass.BAD);
  }

  @Test
  void aProbeThatRulesOutHalfTheEndpointRegressionIsGoodEvenIfUndecidedAroundZero() {
    // -0.0% [-8%, +9%] against an endpoint regression of -55%: clearly the good end.
    assertThat(ProbeClass.of(-0.08, 0.09, -0.55)).isEqualTo(ProbeClass.GOOD);
  }

  @Test
  void aSmallRegressionOfItsOwnNearerTheGoodEndIsGoodAsOnTheControllersBisect() {
    // -5% [-9%, -1%] against -55%: it rules out no change, and it rules out half the regression.
    assertThat(ProbeClass.of(-0.09, -0.01, -0.55)).isEqualTo(ProbeClass.GOOD);
    assertThat(dev.abfleet.controller.bisect.ProbeRule.classify(-0.09, -0.01, -0.55, 0.5))
        .isEqualTo(dev.abfleet.controller.bisect.Outcome.GOOD);
  }

  @Test
  void aProbeBetweenTheEndsIsAmbiguous() {
    assertThat(ProbeClass.of(-0.35, 0.02, -0.55)).isEqualTo(ProbeClass.AMBIGUOUS);
  }

  @Test
  void withoutARegressionBetweenTheEndpointsNothingIsGood() {
    assertThat(ProbeClass.of(-0.01, 0.01, 0.03)).isEqualTo(ProbeClass.AMBIGUOUS);
  }

  @Test
  void aBadProbeNearerTheGoodEndIsDoubtfulAndMeasuredAgain() {
    // -13.4% [-52.0%, -4.1%] against an endpoint regression of -85.6%: rules out zero, looks good.
    ProbeClass c = ProbeClass.of(-0.520, -0.041, -0.856);
    assertThat(c).isEqualTo(ProbeClass.BAD);
    assertThat(ProbeClass.doubtful(c, -0.134, -0.856)).isTrue();
    assertThat(ProbeClass.doubtful(ProbeClass.BAD, -0.80, -0.856)).isFalse();
    assertThat(ProbeClass.doubtful(ProbeClass.GOOD, -0.01, -0.856)).isFalse();
  }

  @Test
  void undefinedIntervalsAreAmbiguous() {
    assertThat(ProbeClass.of(Double.NaN, Double.NaN, -0.5)).isEqualTo(ProbeClass.AMBIGUOUS);
  }

  @Test
  void lowerIsBetterMetricsAreTurnedSoThatWorseIsNegative() {
    assertThat(ProbeClass.directionAware(0.10, 0.30, false)).containsExactly(-0.30, -0.10);
    assertThat(ProbeClass.directionAware(-0.1, 0.2, true)).containsExactly(-0.1, 0.2);
  }

  /**
   * The error rates the class's documentation claims, by simulation: intervals that cover their
   * true value 95% of the time (normal estimate, known sd) call a good probe (true change 0) bad,
   * and a bad probe (true change = the endpoint regression) good, each at most 2.5% of the time.
   */
  @Test
  void misclassifiesAtMostHalfAlphaEachWayInSimulation() {
    SplittableRandom rnd = new SplittableRandom(7);
    double sd = 0.06;
    double endpoint = -0.10;
    int n = 20_000;
    int goodCalledBad = 0;
    int badCalledGood = 0;
    for (int i = 0; i < n; i++) {
      double g = gaussian(rnd) * sd;
      if (ProbeClass.of(g - 1.96 * sd, g + 1.96 * sd, endpoint) == ProbeClass.BAD) {
        goodCalledBad++;
      }
      double b = endpoint + gaussian(rnd) * sd;
      if (ProbeClass.of(b - 1.96 * sd, b + 1.96 * sd, endpoint) == ProbeClass.GOOD) {
        badCalledGood++;
      }
    }
    // 2.5% with a binomial margin of 4 standard errors over 20,000 draws.
    double limit = 0.025 + 4 * Math.sqrt(0.025 * 0.975 / n);
    assertThat(goodCalledBad / (double) n).isLessThan(limit);
    assertThat(badCalledGood / (double) n).isLessThan(limit);
  }

  private static double gaussian(SplittableRandom r) {
    double u1 = r.nextDouble();
    double u2 = r.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  }
}
