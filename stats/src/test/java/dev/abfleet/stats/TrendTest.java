package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

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
  void constantValuesShowNoTrend() {
    assertThat(Trend.kendall(new double[] {1, 1, 1, 1, 1}).p()).isEqualTo(1.0);
  }
}
