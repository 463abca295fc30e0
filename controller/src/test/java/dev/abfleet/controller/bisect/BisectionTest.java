package dev.abfleet.controller.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Decision;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.MetricInput;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.SequentialPlan;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BisectionTest {
  private static final Policy POLICY = new Policy(0.02, 0.05, List.of(10, 15, 20));

  /**
   * A fleet and controller in miniature: artifact i runs at 1000 ops/s, or 1000 * (1 +
   * regression) from {@code firstBad} on; every boot has log-normal noise {@code sd}; pairs
   * alternate order. Each probe is one experiment of up to the last look's pairs, stopped at the
   * first look where the plan decides, as the controller's experiment does.
   */
  static class FakeFleet implements ProbeRunner {
    final int firstBad;
    final double regression;
    final double sd;
    final SplittableRandom random;
    String better = "higher";
    int experiments;
    int pairs;

    FakeFleet(int firstBad, double regression, double sd, long seed) {
      this.firstBad = firstBad;
      this.regression = regression;
      this.sd = sd;
      this.random = new SplittableRandom(seed);
    }

    double level(int artifact) {
      return 1000 * (artifact >= firstBad ? 1 + regression : 1);
    }

    @Override
    public Finished run(int good, int candidate, Policy policy) {
      experiments++;
      int n = policy.looks().get(policy.looks().size() - 1);
      double[] a = new double[n];
      double[] b = new double[n];
      boolean[] first = new boolean[n];
      for (int i = 0; i < n; i++) {
        a[i] = level(good) * Math.exp(sd * gaussian());
        b[i] = level(candidate) * Math.exp(sd * gaussian());
        first[i] = i % 2 == 0;
      }
      MetricInput in = MetricInput.paired("m", "ops/s", Direction.parse(better), true, a, b, null, first);
      Decision d = SequentialPlan.of(policy).firstStop(List.of(in), 7);
      int used = policy.looks().get(d.look());
      pairs += used;
      Comparison c = d.comparisons().get(0);
      return new Finished("e" + experiments, used, 2 * used, c.verdict().wire(), better, c.change(), c.ciLow(),
          c.ciHigh(), c.reasons());
    }

    private double gaussian() {
      double u = 1 - random.nextDouble();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5, 7, 8, 9, 14, 15})
  void findsTheInjectedFirstBadOfSixteenInAtMostFourProbes(int firstBad) {
    FakeFleet fleet = new FakeFleet(firstBad, -0.10, 0.01, firstBad);
    Bisection.Result r = Bisection.search(16, new SequentialProbe(fleet, POLICY));
    assertThat(r.found()).isTrue();
    assertThat(r.firstBad()).isEqualTo(firstBad);
    // 15 gaps between 16 artifacts: 3 or 4 halvings, ceil(log2(15)) = 4 at most.
    assertThat(r.steps().size()).isBetween(3, 4);
    assertThat(r.experiments()).isEqualTo(fleet.experiments).isEqualTo(r.steps().size());
    assertThat(r.pairs()).isEqualTo(fleet.pairs).isLessThanOrEqualTo(r.steps().size() * 20);
    assertThat(r.boots()).isEqualTo(2 * fleet.pairs);
  }

  @Test
  void clearRegressionStopsAtTheFirstLook() {
    FakeFleet fleet = new FakeFleet(3, -0.30, 0.005, 1);
    ProbeResult r = new SequentialProbe(fleet, POLICY).compare(0, 8);
    assertThat(r.outcome()).isEqualTo(Outcome.BAD);
    assertThat(r.pairs()).isEqualTo(10);
    assertThat(r.experiment()).isEqualTo("e1");
    assertThat(fleet.experiments).isEqualTo(1);
    assertThat(r.note()).isEqualTo("regressed at look 1 of 3 (10 pairs)");
    assertThat(r.change()).isBetween(-0.32, -0.28);
  }

  @Test
  void lowerIsBetterMetricRegressesUpward() {
    FakeFleet fleet = new FakeFleet(3, 0.30, 0.005, 2);
    fleet.better = "lower";
    assertThat(new SequentialProbe(fleet, POLICY).compare(0, 8).outcome()).isEqualTo(Outcome.BAD);
  }

  @Test
  void anEffectHiddenInNoiseIsReportedInconclusiveAfterTheLastLook() {
    FakeFleet fleet = new FakeFleet(8, -0.03, 0.15, 3);
    ProbeResult r = new SequentialProbe(fleet, POLICY).compare(0, 8);
    assertThat(r.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
    assertThat(r.pairs()).isEqualTo(20);
    assertThat(fleet.experiments).isEqualTo(1);
    assertThat(r.note()).startsWith("inconclusive at look 3 of 3 (20 pairs)");
  }

  @Test
  void anUndecidedProbeWhoseIntervalRulesOutARegressionIsGood() {
    ProbeRunner controller = (good, candidate, policy) ->
        new ProbeRunner.Finished("e1", 20, 40, "inconclusive", "higher", 0.01, -0.015, 0.035, List.of("wide"));
    ProbeResult r = new SequentialProbe(controller, POLICY).compare(0, 8);
    assertThat(r.outcome()).isEqualTo(Outcome.GOOD);
    assertThat(r.note()).startsWith("inconclusive at look 3 of 3 (20 pairs), but no regression beyond 2.0%");
  }

  @Test
  void inconclusiveProbeEndsTheSearchWithTheRangeOpen() {
    Probe probe = (good, candidate) -> candidate == 7
        ? new ProbeResult(Outcome.INCONCLUSIVE, "e7", 20, 40, -0.01, -0.05, 0.03, "inconclusive")
        : new ProbeResult(candidate < 11 ? Outcome.GOOD : Outcome.BAD, "e", 10, 20, 0, 0, 0, "");
    Bisection.Result r = Bisection.search(16, probe);
    assertThat(r.found()).isFalse();
    assertThat(r.lastGood()).isEqualTo(0);
    assertThat(r.firstBad()).isEqualTo(15);
    assertThat(r.ambiguous()).isEqualTo(7);
    assertThat(r.steps()).hasSize(1);
  }

  @Test
  void probesCompareWithTheLastKnownGood() {
    List<int[]> calls = new java.util.ArrayList<>();
    Probe probe = (good, candidate) -> {
      calls.add(new int[] {good, candidate});
      return new ProbeResult(candidate < 5 ? Outcome.GOOD : Outcome.BAD, "e", 10, 20, 0, 0, 0, "");
    };
    Bisection.Result r = Bisection.search(16, probe);
    assertThat(r.firstBad()).isEqualTo(5);
    assertThat(calls).containsExactly(new int[] {0, 7}, new int[] {0, 3}, new int[] {3, 5}, new int[] {3, 4});
  }

  @Test
  void maxProbesIsTheCeilingOfLog2OfTheGaps() {
    // 2 kernels: 1 gap, no probe; 3: 2 gaps, 1; 16: 15 gaps, 4; 17: 16 gaps, 4; 18: 17 gaps, 5.
    assertThat(List.of(2, 3, 4, 5, 16, 17, 18).stream().map(Bisection::maxProbes))
        .containsExactly(0, 1, 2, 2, 4, 4, 5);
    for (int n = 2; n <= 40; n++) {
      for (int firstBad = 1; firstBad < n; firstBad++) {
        int bad = firstBad;
        Bisection.Result r = Bisection.search(n, (g, c) ->
            new ProbeResult(c < bad ? Outcome.GOOD : Outcome.BAD, "e", 10, 20, 0, 0, 0, ""));
        assertThat(r.firstBad()).isEqualTo(bad);
        assertThat(r.steps().size()).as("n=%d firstBad=%d", n, bad).isLessThanOrEqualTo(Bisection.maxProbes(n));
      }
    }
  }

  @Test
  void twoArtifactsNeedNoProbe() {
    Bisection.Result r = Bisection.search(2, (g, c) -> {
      throw new AssertionError("no probe expected");
    });
    assertThat(r.found()).isTrue();
    assertThat(r.firstBad()).isEqualTo(1);
  }
}
