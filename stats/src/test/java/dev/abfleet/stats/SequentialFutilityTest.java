package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The futility stop's error bounds, by simulation: four gating metrics per boot with the
 * calibrate scenario's lognormal noise (3% per metric, 2% shared by a boot's metrics, 4% shared
 * by a pair), looks at 8, 16, 24 and 32 pairs, futility effect 5% with beta 10%.
 */
class SequentialFutilityTest {
  private static final List<Integer> LOOKS = List.of(8, 16, 24, 32);
  private static final Policy PLAIN = new Policy(0.02, 0.05, LOOKS);
  private static final Policy FUTILITY = PLAIN.withFutility(0.05, 0.10);
  private static final int METRICS = 4;

  private static List<MetricInput> experiment(SplittableRandom rng, double effect) {
    double[][] a = new double[METRICS][32];
    double[][] b = new double[METRICS][32];
    for (int i = 0; i < 32; i++) {
      double pair = 0.04 * rng.nextGaussian();
      double sharedA = 0.02 * rng.nextGaussian();
      double sharedB = 0.02 * rng.nextGaussian();
      for (int m = 0; m < METRICS; m++) {
        a[m][i] = 1000 * Math.exp(pair + sharedA + 0.03 * rng.nextGaussian());
        b[m][i] = 1000 * Math.exp(pair + sharedB + 0.03 * rng.nextGaussian()) * (m == 0 ? 1 + effect : 1);
      }
    }
    List<MetricInput> out = new ArrayList<>();
    for (int m = 0; m < METRICS; m++) {
      out.add(new MetricInput("m" + m, "ops/s", Direction.HIGHER, true, a[m], b[m]));
    }
    return out;
  }

  private static int pairsUsed(Decision d) {
    return LOOKS.get(d.look());
  }

  /**
   * A/A: the futility stop ends most experiments early with no change, and it never adds a
   * false positive (it is non-binding: each experiment's efficacy calls with it are a subset of
   * those without it), so the family-wise rate stays what the plain plan has.
   */
  @Test
  void aaExperimentsStopEarlierWithoutMoreFalsePositives() {
    SplittableRandom rng = new SplittableRandom(20261203);
    int runs = 400;
    long pairsPlain = 0;
    long pairsFutility = 0;
    int falsePlain = 0;
    int falseFutility = 0;
    int noChange = 0;
    for (int r = 0; r < runs; r++) {
      List<MetricInput> data = experiment(rng, 0);
      Decision plain = SequentialPlan.of(PLAIN).firstStop(data, r);
      Decision fut = SequentialPlan.of(FUTILITY).firstStop(data, r);
      pairsPlain += pairsUsed(plain);
      pairsFutility += pairsUsed(fut);
      boolean fpPlain = plain.comparisons().stream().anyMatch(Comparison::decisive);
      boolean fpFut = fut.comparisons().stream().anyMatch(Comparison::decisive);
      falsePlain += fpPlain ? 1 : 0;
      falseFutility += fpFut ? 1 : 0;
      assertThat(!fpFut || fpPlain).as("run %d: a false positive only with futility", r).isTrue();
      noChange += fut.comparisons().stream().allMatch(c -> c.verdict() == Verdict.NO_CHANGE) ? 1 : 0;
    }
    double meanPlain = pairsPlain / (double) runs;
    double meanFutility = pairsFutility / (double) runs;
    assertThat(meanFutility).as("mean pairs with futility vs %s without", meanPlain)
        .isLessThanOrEqualTo(meanPlain * 2 / 3);
    assertThat(falseFutility).isLessThanOrEqualTo(falsePlain);
    assertThat(falseFutility / (double) runs).isLessThanOrEqualTo(0.05 + 2 * Math.sqrt(0.05 * 0.95 / runs));
    assertThat(noChange).as("A/A experiments ending with every metric no change").isGreaterThan(runs / 2);
  }

  /**
   * A true change of exactly the futility effect (the worst case of the bound): the share of
   * experiments calling that metric no change stays below beta = 10%, within Monte Carlo error.
   */
  @Test
  void aTrueChangeOfTheFutilityEffectIsCalledNoChangeAtMostBetaOfTheTime() {
    SplittableRandom rng = new SplittableRandom(42);
    int runs = 600;
    int falseNoChange = 0;
    for (int r = 0; r < runs; r++) {
      Decision d = SequentialPlan.of(FUTILITY).firstStop(experiment(rng, r % 2 == 0 ? 0.05 : -0.05), r);
      falseNoChange += d.comparisons().get(0).verdict() == Verdict.NO_CHANGE ? 1 : 0;
    }
    assertThat(falseNoChange / (double) runs)
        .isLessThanOrEqualTo(0.10 + 2 * Math.sqrt(0.10 * 0.90 / runs));
  }

  @Test
  void aFutilityCallSaysWhatWasRuledOut() {
    SplittableRandom rng = new SplittableRandom(7);
    Comparison c = null;
    for (int r = 0; r < 50 && c == null; r++) {
      Decision d = SequentialPlan.of(FUTILITY).firstStop(experiment(rng, 0), r);
      c = d.comparisons().stream().filter(x -> x.verdict() == Verdict.NO_CHANGE).findFirst().orElse(null);
    }
    assertThat(c).isNotNull();
    assertThat(c.warnings()).anyMatch(w -> w.startsWith("futility stop at look ")
        && w.contains("rules out a change of ±5% or more (beta 10%)"));
  }

  @Test
  void aFutilityNoChangeShowsTheIntervalThatDecidedIt() {
    SplittableRandom rng = new SplittableRandom(11);
    int calls = 0;
    for (int r = 0; r < 40; r++) {
      Decision d = SequentialPlan.of(FUTILITY).firstStop(experiment(rng, 0), r);
      for (Comparison c : d.comparisons()) {
        if (c.warnings().stream().anyMatch(w -> w.startsWith("futility stop at look "))) {
          calls++;
          assertThat(c.verdict()).isEqualTo(Verdict.NO_CHANGE);
          // no_change by futility means ±5% ruled out: the interval shown must say so
          assertThat(c.ciLow()).as("run %d %s", r, c.warnings()).isGreaterThanOrEqualTo(-0.05);
          assertThat(c.ciHigh()).as("run %d %s", r, c.warnings()).isLessThanOrEqualTo(0.05);
          assertThat(c.warnings()).anyMatch(w -> w.contains("this row shows that interval"));
        }
      }
    }
    assertThat(calls).as("futility calls").isGreaterThan(10);
  }

  @Test
  void withoutLooksThereIsNoFutilityStop() {
    Policy fixed = new Policy(0.02, 0.05).withFutility(0.05, 0.10);
    List<Comparison> out = VerdictEngine.compare(experiment(new SplittableRandom(3), 0), fixed);
    assertThat(out).noneMatch(c -> c.warnings().stream().anyMatch(w -> w.startsWith("futility")));
  }
}
