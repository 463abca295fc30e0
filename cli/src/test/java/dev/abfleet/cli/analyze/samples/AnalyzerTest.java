package dev.abfleet.cli.analyze.samples;

import dev.abfleet.stats.verdict.BootValues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.report.BootRecord;
import dev.abfleet.report.Report;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Input lines become the report model's boots, judged as a fleet's boots are. */
class AnalyzerTest {
  private static final Policy POLICY = new Policy(0.02, 0.05);

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
    List<BootRecord> boots = Analyzer.boots(in);
    assertThat(boots).hasSize(2);
    assertThat(BootValues.of(boots.get(0), "m")).isEqualTo(110.0);
    assertThat(BootValues.of(boots.get(1), "m")).isEqualTo(50.0);
  }

  @Test
  void failedBootIsNaNForEveryMetricOfItsPairAndCountedPerArm() {
    List<Sample> in = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      in.add(s("a", p, "m", 100, false));
      in.add(p == 2 ? failed("b", p) : s("b", p, "m", 100, false));
    }
    Report r = Analyzer.one("e", in, "a", null, POLICY, 1);
    assertThat(r.assessment().rows().get(0).comparison().nPairs()).isEqualTo(3);
    var failures = r.assessment().bootFailures().get("b");
    assertThat(failures.candidateFailed()).isEqualTo(1);
    assertThat(failures.candidateBoots()).isEqualTo(4);
    assertThat(failures.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void bootOrderWithinAPairComesFromLineOrder() {
    List<Sample> in = List.of(s("a", 0, "m", 1, false), s("b", 0, "m", 1, false),
        s("b", 1, "m", 1, false), s("a", 1, "m", 1, false));
    List<BootRecord> boots = Analyzer.boots(in);
    assertThat(boots.get(0).order()).as("a, pair 0").isLessThan(boots.get(1).order());
    assertThat(boots.get(3).order()).as("a, pair 1").isGreaterThan(boots.get(2).order());
  }

  @Test
  void maxPairsKeepsTheFirstPairsByPairNumber() {
    List<Sample> in = new ArrayList<>();
    for (int p = 5; p >= 0; p--) {
      in.add(s("a", p, "m", 100 + p, false));
      in.add(s("b", p, "m", 200 + p, false));
    }
    Report r = Analyzer.one("e", in, "a", 3, POLICY, 1);
    assertThat(r.assessment().pairs()).isEqualTo(3);
    assertThat(r.assessment().rows().get(0).comparison().baselineCenter()).isEqualTo(101.0);
  }

  @Test
  void linesWithoutHostOrPairMakeTheExperimentUnpaired() {
    List<Sample> in = List.of(
        new Sample("e", "a", null, null, "x", "m", 1, "ns", "lower", false, false, 1, "f:1"),
        new Sample("e", "b", null, null, "y", "m", 2, "ns", "lower", false, false, 2, "f:2"));
    assertThat(Analyzer.one("e", in, null, null, POLICY, 1).assessment().paired()).isFalse();
  }
}
