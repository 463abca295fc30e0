package dev.abfleet.stats.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.MetricInput;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.Verdict;
import dev.abfleet.stats.VerdictEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The gate through the engine on simulated experiments: four gating metrics, 40 pairs, a fixed
 * design at alpha 0.05 and threshold ±2%, per-boot lognormal noise 2% per metric (a quiet host)
 * over a shared per-pair host effect of 5%.
 */
class GateSimulationTest {
  private static final Policy POLICY = new Policy(0.02, 0.05);
  private static final int PAIRS = 40;
  private static final int RUNS = 40;

  private static List<Row> experiment(SplittableRandom rng, double factorOnFirst) {
    List<MetricInput> inputs = new ArrayList<>();
    for (int m = 0; m < 4; m++) {
      double[] a = new double[PAIRS];
      double[] b = new double[PAIRS];
      for (int i = 0; i < PAIRS; i++) {
        double host = 0.05 * rng.nextGaussian();
        a[i] = 1000 * Math.exp(host + 0.02 * rng.nextGaussian());
        b[i] = 1000 * Math.exp(host + 0.02 * rng.nextGaussian()) * (m == 0 ? factorOnFirst : 1);
      }
      inputs.add(new MetricInput("m" + m, "ops/s", Direction.HIGHER, true, a, b));
    }
    return VerdictEngine.compare(inputs, POLICY, rng.nextLong()).stream()
        .map(c -> new Row("cand", c, 0)).toList();
  }

  /** The rule before holds existed: every gating metric improved or no_change. */
  private static boolean passedBefore(List<Row> rows) {
    return rows.stream().map(Row::comparison).allMatch(c -> c.verdict() == Verdict.IMPROVED
        || c.verdict() == Verdict.NO_CHANGE);
  }

  @Test
  void oneMetricTenPercentBetterAndTheOthersUnchangedPassesTheGateInMostRuns() {
    SplittableRandom rng = new SplittableRandom(25);
    int pass = 0;
    int before = 0;
    for (int r = 0; r < RUNS; r++) {
      List<Row> rows = experiment(rng, 1.10);
      assertThat(rows.get(0).comparison().verdict()).isEqualTo(Verdict.IMPROVED);
      pass += Overall.gate(rows, Map.of()).equals("pass") ? 1 : 0;
      before += passedBefore(rows) ? 1 : 0;
    }
    assertThat(pass).as("passed the gate, against %d of %d by equivalence alone", before, RUNS)
        .isGreaterThanOrEqualTo(RUNS * 3 / 4).isGreaterThanOrEqualTo(before);
  }

  @Test
  void anAaPassesAtLeastAsOftenAsBeforeAndNeverReadsImproved() {
    SplittableRandom rng = new SplittableRandom(26);
    int pass = 0;
    int before = 0;
    for (int r = 0; r < RUNS; r++) {
      List<Row> rows = experiment(rng, 1.0);
      String overall = Overall.of(rows, Map.of());
      assertThat(overall).isNotEqualTo("improved");
      pass += Overall.gate(rows, Map.of()).equals("pass") ? 1 : 0;
      before += passedBefore(rows) ? 1 : 0;
    }
    assertThat(pass).as("A/A passes, against %d of %d by equivalence alone", before, RUNS)
        .isGreaterThanOrEqualTo(before).isGreaterThanOrEqualTo(RUNS * 3 / 4);
  }

  @Test
  void oneMetricTenPercentWorseFailsTheGate() {
    SplittableRandom rng = new SplittableRandom(27);
    for (int r = 0; r < RUNS; r++) {
      List<Row> rows = experiment(rng, 0.90);
      Comparison worse = rows.get(0).comparison();
      assertThat(Overall.gate(rows, Map.of())).as("run %d: %s", r, worse).isEqualTo("fail");
    }
  }
}
