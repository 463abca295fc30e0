package dev.abfleet.bench.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The slow-boot scenarios make the noise issue 25 describes. */
class ScenarioTest {
  /** Share of boots more than 25% below the median (5% noise never goes that far). */
  private static double slowShare(Scenario s, double threshold) {
    SimExperiment e = s.generate(new SplittableRandom(9), 20_000, 1, 0.0);
    long slow = 0;
    for (double[] arm : new double[][] {e.baseline()[0], e.candidate()[0]}) {
      for (double v : arm) {
        slow += v < 1000 / threshold ? 1 : 0;
      }
    }
    return slow / 40_000.0;
  }

  @Test
  void slowbootMakesSixPercentOfBootsFortyPercentSlower() {
    assertThat(slowShare(Scenario.SLOWBOOT, 1.2)).isCloseTo(0.06, within(0.005));
  }

  @Test
  void slowboot30MakesThirtyPercentOfBootsFifteenPercentSlower() {
    // the two groups overlap (ln 1.15 is 2.8 noise sd), so check the mixture's first two moments:
    // mean -0.3 ln 1.15, variance 0.05^2 + 0.3 * 0.7 * (ln 1.15)^2
    SimExperiment e = Scenario.SLOWBOOT30.generate(new SplittableRandom(9), 20_000, 1, 0.0);
    double sum = 0;
    double squares = 0;
    for (double[] arm : new double[][] {e.baseline()[0], e.candidate()[0]}) {
      for (double v : arm) {
        double x = Math.log(v / 1000);
        sum += x;
        squares += x * x;
      }
    }
    double mean = sum / 40_000;
    double variance = squares / 40_000 - mean * mean;
    double slow = Math.log(1.15);
    assertThat(mean).isCloseTo(-0.3 * slow, within(0.001));
    assertThat(variance).isCloseTo(0.05 * 0.05 + 0.3 * 0.7 * slow * slow, within(1e-4));
  }

  @Test
  void slowBootScenariosHaveNoPairFactorAndFivePercentNoise() {
    SimExperiment e = Scenario.SLOWBOOT.generate(new SplittableRandom(4), 20_000, 1, 0.0);
    double[] a = e.baseline()[0];
    double[] c = e.candidate()[0];
    double sa = 0, sc = 0, sac = 0, saa = 0, scc = 0;
    int n = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] > 1000 / 1.2 && c[i] > 1000 / 1.2) {
        double x = Math.log(a[i] / 1000);
        double y = Math.log(c[i] / 1000);
        sa += x; sc += y; sac += x * y; saa += x * x; scc += y * y; n++;
      }
    }
    double cov = sac / n - sa / n * sc / n;
    double varA = saa / n - sa / n * sa / n;
    double varC = scc / n - sc / n * sc / n;
    assertThat(cov / Math.sqrt(varA * varC)).isCloseTo(0.0, within(0.03));
    assertThat(Math.sqrt(varA)).isCloseTo(0.05, within(0.002));
  }
}
