package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Seeded Monte Carlo checks of the error rates the verdict engine promises. */
class SimulationTest {
  private static final double SIGMA = 0.1;

  private static double[] lognormal(SplittableRandom rng, int n, double logMean) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = 1000 * Math.exp(logMean + SIGMA * rng.nextGaussian());
    }
    return v;
  }

  /** Share of experiments where any metric came out IMPROVED or REGRESSED. */
  private static double[] runExperiments(long seed, double firstMetricLogEffect) {
    SplittableRandom rng = new SplittableRandom(seed);
    int experiments = 1000;
    int anyDecisive = 0;
    int firstDetected = 0;
    for (int e = 0; e < experiments; e++) {
      List<MetricInput> metrics = new ArrayList<>();
      for (int m = 0; m < 4; m++) {
        double effect = m == 0 ? firstMetricLogEffect : 0;
        metrics.add(new MetricInput("m" + m, "ops/s", Direction.HIGHER, true,
            lognormal(rng, 8, 0), lognormal(rng, 8, effect)));
      }
      List<Comparison> out = VerdictEngine.comparePaired(metrics, Policy.DEFAULT);
      if (out.stream().anyMatch(c -> c.verdict() == Verdict.IMPROVED
          || c.verdict() == Verdict.REGRESSED)) {
        anyDecisive++;
      }
      if (out.get(0).verdict() == Verdict.REGRESSED) {
        firstDetected++;
      }
    }
    return new double[] {anyDecisive / (double) experiments, firstDetected / (double) experiments};
  }

  @Test
  void familyWiseFalsePositiveRateStaysNearAlphaInAaExperiments() {
    assertThat(runExperiments(20240601L, 0)[0]).isLessThanOrEqualTo(0.05 + 0.02);
  }

  @Test
  void detectsThirtyPercentRegressionOnOneOfFourMetricsWithEightPairs() {
    assertThat(runExperiments(7L, Math.log(0.7))[1]).isGreaterThanOrEqualTo(0.8);
  }

  @Test
  void ninetyFivePercentIntervalCoversKnownShiftAtTwelvePairs() {
    SplittableRandom rng = new SplittableRandom(42L);
    double trueChange = 0.10;
    int runs = 2000;
    int covered = 0;
    for (int r = 0; r < runs; r++) {
      MetricInput in = new MetricInput("m", "ops/s", Direction.HIGHER, false,
          lognormal(rng, 12, 0), lognormal(rng, 12, Math.log1p(trueChange)));
      Comparison c = VerdictEngine.comparePaired(List.of(in), Policy.DEFAULT).get(0);
      if (c.ciLow() <= trueChange && trueChange <= c.ciHigh()) {
        covered++;
      }
    }
    assertThat(covered / (double) runs).isGreaterThanOrEqualTo(0.93);
  }
}
