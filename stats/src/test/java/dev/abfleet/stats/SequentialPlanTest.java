package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SequentialPlanTest {
  private static final Policy LOOKS = new Policy(0.02, 0.05, List.of(8, 16, 24, 32));

  private static List<MetricInput> experiment(long seed, int pairs, double... logEffects) {
    return noisy(seed, pairs, 0.03, logEffects);
  }

  /** Per-boot lognormal noise {@code noise} around a per-pair host effect of 5%. */
  private static List<MetricInput> noisy(long seed, int pairs, double noise, double... logEffects) {
    SplittableRandom rng = new SplittableRandom(seed);
    List<MetricInput> out = new ArrayList<>();
    for (int m = 0; m < logEffects.length; m++) {
      double[] a = new double[pairs];
      double[] b = new double[pairs];
      for (int i = 0; i < pairs; i++) {
        double host = 0.05 * rng.nextGaussian();
        a[i] = 1000 * Math.exp(host + noise * rng.nextGaussian());
        b[i] = 1000 * Math.exp(host + logEffects[m] + noise * rng.nextGaussian());
      }
      out.add(new MetricInput("m" + m, "ops/s", Direction.HIGHER, true, a, b));
    }
    return out;
  }

  @Test
  void largeEffectsStopAtAnEarlyLook() {
    SequentialPlan plan = SequentialPlan.of(LOOKS);
    Decision d = plan.decide(1, experiment(1, 16, Math.log(1.3), Math.log(0.7)));
    assertThat(d.stop()).isTrue();
    assertThat(d.comparisons()).allMatch(Comparison::decisive);
  }

  @Test
  void noEffectDoesNotStopBeforeTheMetricsAreShownInsideTheThreshold() {
    SequentialPlan plan = SequentialPlan.of(LOOKS);
    Decision d = plan.decide(0, experiment(2, 8, 0, 0));
    assertThat(d.stop()).isFalse();
    assertThat(d.decidedAt()).containsOnly(-1);
  }

  @Test
  void stopsEarlyWhenOneMetricImprovedAndTheOtherHolds() {
    // +10% on one metric, +1.5% on the other: the second cannot be shown inside ±2%
    // (equivalence: its interval reaches past +2%), but it is shown not worse than -2%
    // (non-inferiority), and that decides it, so the experiment ends before its last look
    int heldEarly = 0;
    for (long seed = 1; seed <= 10; seed++) {
      Decision d = SequentialPlan.of(LOOKS).firstStop(
          noisy(100 + seed, 32, 0.01, Math.log(1.10), Math.log(1.015)), 7);
      assertThat(d.comparisons()).allMatch(c -> c.verdict().passes());
      if (d.stop() && d.look() < LOOKS.looks().size() - 1
          && d.comparisons().get(1).verdict() == Verdict.HOLDS) {
        heldEarly++;
        assertThat(d.comparisons().get(1).ciLow()).isGreaterThanOrEqualTo(-0.02);
        assertThat(d.comparisons().get(1).ciHigh()).isGreaterThan(0.02);
      }
    }
    assertThat(heldEarly).as("experiments ended early by a metric that holds").isGreaterThanOrEqualTo(8);
  }

  @Test
  void lastLookAlwaysStops() {
    Decision d = SequentialPlan.of(LOOKS).decide(3, experiment(3, 32, 0.015, 0));
    assertThat(d.stop()).isTrue();
  }

  @Test
  void verdictReachedAtAnEarlierLookIsKept() {
    List<MetricInput> data = experiment(4, 32, Math.log(1.3), 0);
    Decision d = SequentialPlan.of(LOOKS).decide(3, data);
    int at = d.decidedAt().get(0);
    assertThat(at).isBetween(0, 2);
    assertThat(d.comparisons().get(0).nPairs()).isEqualTo(LOOKS.looks().get(at));
    assertThat(d.comparisons().get(0).warnings()).anyMatch(w -> w.startsWith("decided at look"));
  }

  @Test
  void compareWithLooksJudgesAtTheLookThePairCountReaches() {
    List<MetricInput> data = experiment(5, 32, 0.01, 0.01);
    Comparison viaEngine = VerdictEngine.compare(data, LOOKS).get(0);
    Comparison viaPlan = SequentialPlan.of(LOOKS).decide(3, data).comparisons().get(0);
    assertThat(viaEngine).isEqualTo(viaPlan);
  }

  @Test
  void firstStopEqualsCallingDecideAtEachLookUntilItStops() {
    SequentialPlan plan = SequentialPlan.of(LOOKS);
    List<MetricInput> data = experiment(6, 32, Math.log(0.85), 0);
    Decision stepwise = null;
    for (int look = 0; look < 4; look++) {
      int n = LOOKS.looks().get(look);
      stepwise = plan.decide(look, data.stream().map(in -> in.firstN(n)).toList());
      if (stepwise.stop()) {
        break;
      }
    }
    assertThat(plan.firstStop(data, VerdictEngine.DEFAULT_SEED)).isEqualTo(stepwise);
  }

  /** A/A experiments stopped at the first look that decides must not reject more often. */
  @Test
  void stoppingEarlyKeepsTheFamilyWiseFalsePositiveRate() {
    SequentialPlan plan = SequentialPlan.of(LOOKS);
    int runs = 300;
    int falsePositive = 0;
    for (int r = 0; r < runs; r++) {
      List<MetricInput> data = experiment(1000 + r, 32, 0, 0, 0, 0);
      for (int look = 0; look < 4; look++) {
        int n = LOOKS.looks().get(look);
        Decision d = plan.decide(look, data.stream().map(in -> in.firstN(n)).toList());
        if (d.stop()) {
          if (d.comparisons().stream().anyMatch(Comparison::decisive)) {
            falsePositive++;
          }
          break;
        }
      }
    }
    assertThat(falsePositive / (double) runs).isLessThanOrEqualTo(0.05);
  }
}
