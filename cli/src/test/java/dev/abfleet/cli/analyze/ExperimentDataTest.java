package dev.abfleet.cli.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentDataTest {
  private static long order;

  private static Sample s(String arm, int pair, String metric, double value, boolean warmup) {
    return new Sample("e", arm, "h1", pair, arm + pair, metric, value, "ns", "lower", warmup,
        false, order++, "f:" + order);
  }

  private static Sample failed(String arm, int pair) {
    return new Sample("e", arm, "h1", pair, arm + pair, null, Double.NaN, null, null, false,
        true, order++, "f:" + order);
  }

  @Test
  void warmupIterationsAreDroppedAndTheRestGiveTheirMedian() {
    List<Sample> in = List.of(s("a", 0, "m", 900, true), s("a", 0, "m", 100, false),
        s("a", 0, "m", 110, false), s("a", 0, "m", 120, false), s("b", 0, "m", 50, false));
    ExperimentData.Built b = ExperimentData.build("e", in, "a", null, 0.05);
    assertThat(b.inputs().get(0).baseline()).containsExactly(110.0);
    assertThat(b.inputs().get(0).candidate()).containsExactly(50.0);
  }

  @Test
  void failedBootIsNaNForEveryMetricOfItsPairAndCountedPerArm() {
    List<Sample> in = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      in.add(s("a", p, "m", 100, false));
      in.add(p == 2 ? failed("b", p) : s("b", p, "m", 100, false));
    }
    ExperimentData.Built b = ExperimentData.build("e", in, "a", null, 0.05);
    assertThat(b.inputs().get(0).candidate()[2]).isNaN();
    assertThat(b.bootFailures().get("b").candidateFailed()).isEqualTo(1);
    assertThat(b.bootFailures().get("b").candidateBoots()).isEqualTo(4);
    assertThat(b.bootFailures().get("b").verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void bootOrderWithinAPairComesFromLineOrder() {
    List<Sample> in = List.of(s("a", 0, "m", 1, false), s("b", 0, "m", 1, false),
        s("b", 1, "m", 1, false), s("a", 1, "m", 1, false));
    ExperimentData.Built b = ExperimentData.build("e", in, "a", null, 0.05);
    assertThat(b.inputs().get(0).baselineFirst()).containsExactly(true, false);
  }

  @Test
  void maxPairsKeepsTheFirstPairsByPairNumber() {
    List<Sample> in = new ArrayList<>();
    for (int p = 5; p >= 0; p--) {
      in.add(s("a", p, "m", 100 + p, false));
      in.add(s("b", p, "m", 200 + p, false));
    }
    ExperimentData.Built b = ExperimentData.build("e", in, "a", 3, 0.05);
    assertThat(b.inputs().get(0).baseline()).containsExactly(100.0, 101.0, 102.0);
    assertThat(b.pairs()).isEqualTo(3);
  }

  @Test
  void linesWithoutHostOrPairMakeTheExperimentUnpaired() {
    List<Sample> in = List.of(
        new Sample("e", "a", null, null, "x", "m", 1, "ns", "lower", false, false, 1, "f:1"),
        new Sample("e", "b", null, null, "y", "m", 2, "ns", "lower", false, false, 2, "f:2"));
    assertThat(ExperimentData.build("e", in, null, null, 0.05).paired()).isFalse();
  }
}
