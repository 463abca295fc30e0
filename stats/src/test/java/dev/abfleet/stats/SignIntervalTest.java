package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Reference depths from scipy: k = the largest with 2 * binom.cdf(k - 1, n, 0.5) <= alpha, e.g.
 * {@code [max(k for k in range(1, n) if 2*binom.cdf(k-1, n, .5) <= .05) for n in (6, 10, 20, 100)]}
 * = [1, 2, 6, 40].
 */
class SignIntervalTest {
  @Test
  void depthMatchesTheBinomialQuantilesScipyGives() {
    assertThat(SignInterval.depth(5, 0.05)).isZero();
    assertThat(SignInterval.depth(6, 0.05)).isEqualTo(1);
    assertThat(SignInterval.depth(10, 0.05)).isEqualTo(2);
    assertThat(SignInterval.depth(20, 0.05)).isEqualTo(6);
    assertThat(SignInterval.depth(100, 0.05)).isEqualTo(40);
    assertThat(SignInterval.depth(2000, 0.05)).isEqualTo(956);
  }

  @Test
  void intervalIsTheOrderStatisticsAtThatDepth() {
    double[] d = {5, -1, 3, 9, 2, 7, 4, 8, 6, 10};
    SignInterval s = SignInterval.of(d, 0.05);
    assertThat(s.n()).isEqualTo(10);
    assertThat(s.median()).isCloseTo(5.5, within(1e-12));
    assertThat(s.low()).isEqualTo(2.0);
    assertThat(s.high()).isEqualTo(9.0);
  }

  @Test
  void tooFewDifferencesGiveAnEstimateWithoutAnInterval() {
    SignInterval s = SignInterval.of(new double[] {1, 2, Double.NaN, 3}, 0.05);
    assertThat(s.n()).isEqualTo(3);
    assertThat(s.median()).isEqualTo(2.0);
    assertThat(s.low()).isNaN();
    assertThat(s.high()).isNaN();
  }
}
