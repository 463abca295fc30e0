package dev.abfleet.controller.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Decision;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.MetricInput;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.SequentialPlan;
import java.util.ArrayList;
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
    final List<Double> thresholds = new ArrayList<>();
    final List<List<Integer>> looks = new ArrayList<>();

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
      thresholds.add(policy.noiseThreshold());
      looks.add(policy.looks());
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

  private static ProbeRunner.Finished finished(String better, double change, double low, double high) {
    return new ProbeRunner.Finished("e1", 20, 40, "inconclusive", better, change, low, high, List.of("wide"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5, 7, 8, 9, 14, 15})
  void findsTheInjectedFirstBadOfSixteenAfterTheEndpointsInAtMostFiveSteps(int firstBad) {
    FakeFleet fleet = new FakeFleet(firstBad, -0.10, 0.01, firstBad);
    Bisection.Result r = Bisection.search(16, 0, fleet, POLICY);
    assertThat(r.found()).isTrue();
    assertThat(r.firstBad()).isEqualTo(firstBad);
    assertThat(r.steps().get(0)).extracting(Bisection.Step::good, Bisection.Step::probe).containsExactly(0, 15);
    // The endpoints, then 15 gaps between 16 artifacts: 3 or 4 halvings, ceil(log2(15)) = 4 at most.
    assertThat(r.steps().size()).isBetween(4, 5);
    assertThat(r.steps()).allSatisfy(s -> assertThat(s.good()).isZero());
    assertThat(r.experiments()).isEqualTo(fleet.experiments).isEqualTo(r.steps().size());
    assertThat(r.pairs()).isEqualTo(fleet.pairs).isLessThanOrEqualTo(r.steps().size() * 20);
    assertThat(r.boots()).isEqualTo(2 * fleet.pairs);
  }

  @Test
  void probesRunWithHalfTheEndpointRegressionAsTheirNoiseThreshold() {
    FakeFleet fleet = new FakeFleet(9, -0.20, 0.01, 4);
    Bisection.Result r = Bisection.search(16, 0, fleet, POLICY);
    assertThat(r.fraction()).isEqualTo(0.5);
    assertThat(fleet.thresholds.get(0)).isEqualTo(0.02);
    assertThat(fleet.thresholds.subList(1, fleet.thresholds.size()))
        .allSatisfy(t -> assertThat(t).isCloseTo(0.5 * Math.abs(r.endpointChange()), org.assertj.core.data.Offset.offset(1e-12)));
  }

  @Test
  void endpointsRunToTheLastLookWhileProbesKeepTheSequentialLooks() {
    // A clear regression that would stop at the first look: the endpoints' experiment still
    // takes the full budget, so R (and the line f·R) comes from all of it.
    FakeFleet fleet = new FakeFleet(3, -0.30, 0.005, 1);
    Bisection.Result r = Bisection.search(16, 0, fleet, POLICY);
    assertThat(r.found()).isTrue();
    assertThat(fleet.looks.get(0)).containsExactly(20);
    assertThat(r.steps().get(0).result().pairs()).isEqualTo(20);
    assertThat(r.steps().get(0).result().note()).isEqualTo("regressed at look 1 of 1 (20 pairs)");
    assertThat(fleet.looks.subList(1, fleet.looks.size())).allSatisfy(l -> assertThat(l).containsExactly(10, 15, 20));
    assertThat(r.steps().subList(1, r.steps().size())).allSatisfy(s -> assertThat(s.result().pairs()).isEqualTo(10));
    assertThat(Bisection.endpointsPolicy(POLICY)).isEqualTo(new Policy(0.02, 0.05, List.of(20)));
  }

  @Test
  void clearRegressionStopsAtTheFirstLook() {
    FakeFleet fleet = new FakeFleet(3, -0.30, 0.005, 1);
    ProbeResult r = ProbeRule.endpoints(fleet.run(0, 8, POLICY), POLICY);
    assertThat(r.outcome()).isEqualTo(Outcome.BAD);
    assertThat(r.pairs()).isEqualTo(10);
    assertThat(r.experiment()).isEqualTo("e1");
    assertThat(r.note()).isEqualTo("regressed at look 1 of 3 (10 pairs)");
    assertThat(r.rule()).startsWith("endpoints: regression R = -3");
    assertThat(r.change()).isBetween(-0.32, -0.28);
  }

  @Test
  void reportsGoodWhenTheIntervalRulesOutHalfTheEndpointRegression() {
    ProbeResult r = ProbeRule.probe(finished("higher", -0.001, -0.028, 0.033), POLICY, -0.15, 0.5);
    assertThat(r.outcome()).isEqualTo(Outcome.GOOD);
    assertThat(r.rule()).isEqualTo("good: worse end -2.8% rules out 0.5 x endpoints' -15.0% = -7.5%");
  }

  @Test
  void reportsBadWhenTheIntervalRulesOutNoChange() {
    ProbeResult r = ProbeRule.probe(finished("higher", -0.12, -0.16, -0.08), POLICY, -0.15, 0.5);
    assertThat(r.outcome()).isEqualTo(Outcome.BAD);
    assertThat(r.rule()).isEqualTo("bad: better end -8.0% rules out no change");
  }

  @Test
  void reportsGoodWhenBothHoldBecauseTheProbeIsNearerTheGoodEnd() {
    ProbeResult r = ProbeRule.probe(finished("higher", -0.02, -0.03, -0.01), POLICY, -0.15, 0.5);
    assertThat(r.outcome()).isEqualTo(Outcome.GOOD);
    assertThat(r.rule()).contains("also rules out no change");
  }

  @Test
  void reportsInconclusiveWhenNeitherEndIsRuledOut() {
    ProbeResult r = ProbeRule.probe(finished("higher", -0.05, -0.09, 0.01), POLICY, -0.15, 0.5);
    assertThat(r.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
    assertThat(r.rule()).isEqualTo("inconclusive: worse end -9.0% does not rule out 0.5 x endpoints' -15.0% = -7.5%,"
        + " better end +1.0% does not rule out no change");
    assertThat(r.note()).isEqualTo("inconclusive at look 3 of 3 (20 pairs): wide");
  }

  @Test
  void lowerIsBetterMetricRegressesUpward() {
    assertThat(ProbeRule.probe(finished("lower", 0.12, 0.08, 0.16), POLICY, 0.15, 0.5).outcome()).isEqualTo(Outcome.BAD);
    assertThat(ProbeRule.probe(finished("lower", 0.01, -0.02, 0.05), POLICY, 0.15, 0.5).outcome()).isEqualTo(Outcome.GOOD);
    FakeFleet fleet = new FakeFleet(3, 0.30, 0.005, 2);
    fleet.better = "lower";
    Bisection.Result r = Bisection.search(16, 0, fleet, POLICY);
    assertThat(r.found()).isTrue();
    assertThat(r.firstBad()).isEqualTo(3);
  }

  @Test
  void aLargerFractionDemandsMoreOfAGoodProbe() {
    ProbeRunner.Finished f = finished("higher", -0.01, -0.06, 0.04);
    assertThat(ProbeRule.probe(f, POLICY, -0.15, 0.5).outcome()).isEqualTo(Outcome.GOOD);
    assertThat(ProbeRule.probe(f, POLICY, -0.15, 0.3).outcome()).isEqualTo(Outcome.INCONCLUSIVE);
  }

  @Test
  void stopsWithoutProbesWhenTheEndpointsShowNoRegression() {
    FakeFleet fleet = new FakeFleet(99, -0.10, 0.01, 5);
    Bisection.Result r = Bisection.search(16, 0, fleet, POLICY);
    assertThat(r.noRegression()).isTrue();
    assertThat(r.done()).isTrue();
    assertThat(r.found()).isFalse();
    assertThat(r.steps()).hasSize(1);
    assertThat(r.endpoints().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
    assertThat(r.endpoints().rule()).startsWith("endpoints: no regression shown");
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
    assertThat(r.steps()).hasSize(2);
  }

  @Test
  void everyStepComparesWithTheGoodEndpoint() {
    List<int[]> calls = new ArrayList<>();
    Probe probe = (good, candidate) -> {
      calls.add(new int[] {good, candidate});
      return new ProbeResult(candidate < 5 ? Outcome.GOOD : Outcome.BAD, "e", 10, 20, 0, 0, 0, "");
    };
    Bisection.Result r = Bisection.search(16, probe);
    assertThat(r.firstBad()).isEqualTo(5);
    assertThat(calls).containsExactly(new int[] {0, 15}, new int[] {0, 7}, new int[] {0, 3}, new int[] {0, 5},
        new int[] {0, 4});
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
        assertThat(r.steps().size()).as("n=%d firstBad=%d", n, bad).isLessThanOrEqualTo(Bisection.maxProbes(n) + 1);
      }
    }
  }

  @Test
  void twoArtifactsNeedOnlyTheEndpoints() {
    List<int[]> calls = new ArrayList<>();
    Bisection.Result r = Bisection.search(2, (g, c) -> {
      calls.add(new int[] {g, c});
      return new ProbeResult(Outcome.BAD, "e", 10, 20, -0.1, -0.12, -0.08, "");
    });
    assertThat(r.found()).isTrue();
    assertThat(r.firstBad()).isEqualTo(1);
    assertThat(calls).containsExactly(new int[] {0, 1});
  }
}
