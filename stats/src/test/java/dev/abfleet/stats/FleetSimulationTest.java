package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A small seeded version of {@code abfleet calibrate}: A/A and A/B experiments under
 * fleet-like noise, judged with the group-sequential plan the experiment entity uses. Bounds
 * allow for Monte Carlo error (about two standard errors above the target); a change that
 * pushes an error rate past them fails the build.
 */
class FleetSimulationTest {
  private static final Policy SEQUENTIAL = new Policy(0.02, 0.05, List.of(8, 16, 24, 32));
  private static final int METRICS = 4;
  private static final int PAIRS = 32;

  enum Noise { LOGNORMAL, DRIFT, OUTLIERS, HOSTS, BIMODAL }

  /** Same model as the calibrate command's scenarios, metric 0 shifted by 1 + effect. */
  static List<MetricInput> experiment(SplittableRandom rng, Noise noise, double effect) {
    double[][] a = new double[METRICS][PAIRS];
    double[][] b = new double[METRICS][PAIRS];
    String[] hosts = new String[PAIRS];
    boolean[] first = new boolean[PAIRS];
    double[] offset = {0.1 * rng.nextGaussian(), 0.1 * rng.nextGaussian(),
        0.1 * rng.nextGaussian(), 0.1 * rng.nextGaussian()};
    for (int i = 0; i < PAIRS; i++) {
      int h = noise == Noise.HOSTS ? i % 4 : 0;
      double sd = noise == Noise.HOSTS ? 0.02 + 0.04 * h / 3.0 : 0.03;
      hosts[i] = "h" + h;
      first[i] = rng.nextBoolean();
      double common = (noise == Noise.HOSTS ? offset[h] : 0) + 0.04 * rng.nextGaussian()
          + (noise == Noise.DRIFT ? 0.15 * i / (PAIRS - 1.0) : 0);
      double[][][] arms = {a, b};
      for (int arm = 0; arm < 2; arm++) {
        double shared = 0.02 * rng.nextGaussian();
        if (noise == Noise.OUTLIERS && rng.nextDouble() < 0.05) {
          shared -= Math.log1p(0.2 + 0.3 * rng.nextDouble());
        }
        if (noise == Noise.BIMODAL && rng.nextDouble() < 0.3) {
          shared -= 0.12;
        }
        for (int m = 0; m < METRICS; m++) {
          double shift = arm == 1 && m == 0 ? Math.log1p(effect) : 0;
          arms[arm][m][i] = 1000 * Math.exp(common + shared + shift + sd * rng.nextGaussian());
        }
      }
    }
    List<MetricInput> out = new ArrayList<>();
    for (int m = 0; m < METRICS; m++) {
      out.add(MetricInput.paired("m" + m, "ops/s", Direction.HIGHER, true, a[m], b[m], hosts,
          first));
    }
    return out;
  }

  /** The decision at the look where the experiment entity would have stopped. */
  static Decision runSequential(List<MetricInput> data) {
    return SequentialPlan.of(SEQUENTIAL).firstStop(data, VerdictEngine.DEFAULT_SEED);
  }

  private static double falsePositiveRate(Noise noise, long seed, int runs) {
    int fp = 0;
    for (int r = 0; r < runs; r++) {
      Decision d = runSequential(experiment(new SplittableRandom(seed + r), noise, 0));
      fp += d.comparisons().stream().anyMatch(Comparison::decisive) ? 1 : 0;
    }
    return fp / (double) runs;
  }

  @Test
  void aaFalsePositivesStayWithinAlphaUnderLognormalNoise() {
    assertThat(falsePositiveRate(Noise.LOGNORMAL, 100, 200)).isLessThanOrEqualTo(0.08);
  }

  @Test
  void aaFalsePositivesStayWithinAlphaUnderDrift() {
    assertThat(falsePositiveRate(Noise.DRIFT, 200, 200)).isLessThanOrEqualTo(0.08);
  }

  @Test
  void aaFalsePositivesStayWithinAlphaWithSlowBootOutliers() {
    assertThat(falsePositiveRate(Noise.OUTLIERS, 300, 200)).isLessThanOrEqualTo(0.08);
  }

  @Test
  void aaFalsePositivesStayWithinAlphaAcrossHostsWithOffsets() {
    assertThat(falsePositiveRate(Noise.HOSTS, 400, 200)).isLessThanOrEqualTo(0.08);
  }

  @Test
  void aaFalsePositivesStayWithinAlphaWithBimodalBoots() {
    assertThat(falsePositiveRate(Noise.BIMODAL, 500, 200)).isLessThanOrEqualTo(0.08);
  }

  @Test
  void ninetyFivePercentIntervalsCoverTheTrueChangeAcrossHosts() {
    int runs = 400;
    int covered = 0;
    for (int r = 0; r < runs; r++) {
      double effect = r % 2 == 0 ? 0.05 : -0.05;
      MetricInput m0 = experiment(new SplittableRandom(600 + r), Noise.HOSTS, effect).get(0);
      MetricInput single = MetricInput.paired("m0", "ops/s", Direction.HIGHER, false,
          m0.baseline(), m0.candidate(), m0.hosts(), m0.baselineFirst());
      Comparison c = VerdictEngine.compare(List.of(single), Policy.DEFAULT).get(0);
      covered += c.ciLow() <= effect && effect <= c.ciHigh() ? 1 : 0;
    }
    assertThat(covered / (double) runs).isGreaterThanOrEqualTo(0.93);
  }

  @Test
  void tenPercentRegressionIsFoundAndStopsBeforeTheLastLook() {
    int runs = 100;
    int found = 0;
    long pairs = 0;
    for (int r = 0; r < runs; r++) {
      Decision d = runSequential(experiment(new SplittableRandom(900 + r), Noise.LOGNORMAL,
          -0.10));
      found += d.comparisons().get(0).verdict() == Verdict.REGRESSED ? 1 : 0;
      pairs += SEQUENTIAL.looks().get(d.look());
    }
    assertThat(found / (double) runs).isGreaterThanOrEqualTo(0.9);
    assertThat(pairs / (double) runs).isLessThan(24);
  }
}
