package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Reference: scipy.stats.kendalltau(range(n), y) in reference_values.py. */
class TrendTest {
  @Test
  void exactKendallPMatchesScipy() {
    double[] trend = {-0.016039, -0.016487, 0.015033, 0.038409, 0.062721, 0.052194, 0.048947,
        0.054304, 0.094975, 0.122696, 0.105455, 0.085333};
    assertThat(Trend.kendall(trend).p())
        .isCloseTo(0.0004988835110362888, withinPercentage(1e-7));
  }

  @Test
  void tiedKendallPMatchesScipyAsymptotic() {
    double[] trend = {-0.02, -0.02, 0.02, 0.04, 0.06, 0.05, 0.05, 0.05, 0.09, 0.12, 0.11, 0.09};
    assertThat(Trend.kendall(trend).p())
        .isCloseTo(0.0006598609193948366, withinPercentage(1e-4));
  }

  @Test
  void kendallAtTwoThousandTiedPairsMatchesScipyAsymptotic() {
    double[] noise = PairwiseValuesTest.heavy(10, 2000, 0.0);
    double[] trend = new double[noise.length];
    for (int i = 0; i < trend.length; i++) {
      trend[i] = Math.floor((noise[i] + 2e-6 * i) * 100) / 100; // ties on a 0.01 grid
    }
    Trend.Result r = Trend.kendall(trend);
    assertThat(r.tau()).isCloseTo(0.021491672062101515, withinPercentage(1e-7));
    assertThat(r.p()).isCloseTo(0.16705269276709622, withinPercentage(1e-4));
  }

  @Test
  void mergeSortCountsEqualComparingEveryPair() {
    SplittableRandom rng = new SplittableRandom(41);
    for (int trial = 0; trial < 200; trial++) {
      double[] y = new double[3 + rng.nextInt(80)];
      for (int i = 0; i < y.length; i++) {
        y[i] = rng.nextInt(4) == 0 ? rng.nextInt(3) : rng.nextGaussian(); // ties included
      }
      long concordant = 0;
      long discordant = 0;
      for (int i = 0; i < y.length; i++) {
        for (int j = i + 1; j < y.length; j++) {
          concordant += y[j] > y[i] ? 1 : 0;
          discordant += y[j] < y[i] ? 1 : 0;
        }
      }
      long pairs = (long) y.length * (y.length - 1) / 2;
      long tied = pairs - concordant - discordant;
      assertThat(Trend.kendall(y).tau())
          .isEqualTo((concordant - discordant) / Math.sqrt((double) pairs * (pairs - tied)));
    }
  }

  @Test
  void constantValuesShowNoTrend() {
    assertThat(Trend.kendall(new double[] {1, 1, 1, 1, 1}).p()).isEqualTo(1.0);
  }
}
