package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The plan's claim, checked against the verdict engine itself: experiments of the planned
 * number of pairs, with a true change of mde on the first of m gating metrics and normal
 * paired noise of the planned sd, are called improved at about the planned power. Noise
 * 2% and 5% (a quiet host, a TCG guest), changes 1.5x to 3x the 2% threshold, 1 and 4 metrics.
 */
class PowerPlanSimulationTest {
  private static final int RUNS = 400;

  /** Share of RUNS experiments whose first metric the engine calls improved. */
  static double enginePower(int n, double sd, double mde, int m, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    int hits = 0;
    for (int r = 0; r < RUNS; r++) {
      List<MetricInput> in = new ArrayList<>();
      for (int j = 0; j < m; j++) {
        double[] a = new double[n];
        double[] c = new double[n];
        for (int i = 0; i < n; i++) {
          double boot = 0.05 * rng.nextGaussian();
          a[i] = 1000 * Math.exp(boot);
          c[i] = 1000 * Math.exp(boot + sd * rng.nextGaussian() + (j == 0 ? Math.log1p(mde) : 0));
        }
        in.add(MetricInput.paired("m" + j, "ops/s", Direction.HIGHER, true, a, c, null, null));
      }
      if (VerdictEngine.compare(in, Policy.DEFAULT).get(0).verdict() == Verdict.IMPROVED) {
        hits++;
      }
    }
    return (double) hits / RUNS;
  }

  @Test
  void theEngineCallsAChangeOfMdeAtThePlannedPower() {
    List<String> rows = new ArrayList<>();
    for (double sd : new double[] {0.02, 0.05}) {
      for (double mde : new double[] {0.03, 0.04, 0.06}) {
        for (int m : new int[] {1, 4}) {
          long n = PowerPlan.pairs(sd, mde, Policy.DEFAULT.noiseThreshold(), Policy.DEFAULT.alpha(), m, 0.8);
          double power = enginePower((int) n, sd, mde, m, 7 * n + m);
          rows.add(String.format("sd %.2f mde %.2f m %d: %d pairs, power %.3f", sd, mde, m, n, power));
          // 400 runs: one standard error is 0.02 at 80%.
          assertThat(power).as(String.join("\n", rows)).isGreaterThanOrEqualTo(0.75);
          if (n > PowerPlan.fewestReaching(Policy.DEFAULT.alpha(), m) && n > PowerPlan.MIN_PAIRS) {
            assertThat(power).as("not planned far past need:\n" + String.join("\n", rows)).isLessThanOrEqualTo(0.93);
          }
        }
      }
    }
    System.out.println(String.join("\n", rows));
  }
}
