package dev.abfleet.stats.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The experiment's overall verdict and gate over its gating rows. */
class OverallGateTest {
  private static Row row(String metric, Verdict v, boolean gating, String hostClass) {
    return new Row("b", new Comparison(metric, "ops/s", Direction.HIGHER, gating, true, 12, 12, 12,
        100, 100, 0, -0.01, 0.01, 0.5, 0.5, v,
        v == Verdict.INCONCLUSIVE ? List.of("underpowered") : List.of(), List.of(), hostClass), 0);
  }

  private static Row row(String metric, Verdict v) {
    return row(metric, v, true, "");
  }

  private static Assessment assessment(List<Row> rows, Map<String, BootFailureComparison> boots) {
    return new Assessment(true, 12, rows, boots, Map.of(), Overall.of(rows, boots));
  }

  private static Assessment assessment(Row... rows) {
    return assessment(List.of(rows), Map.of());
  }

  @Test
  void oneImprovedAndTheOthersHoldingPassesAsImproved() {
    Assessment a = assessment(row("metadata_stat", Verdict.IMPROVED), row("seq_read", Verdict.HOLDS),
        row("negative_lookup", Verdict.NO_CHANGE));
    assertThat(a.overall()).isEqualTo("improved");
    assertThat(a.gate()).isEqualTo("pass");
    assertThat(a.gateLabel())
        .isEqualTo("pass (metadata_stat improved, seq_read holds, negative_lookup no_change)");
  }

  @Test
  void holdingWithoutAnImprovementReadsHolds() {
    Assessment a = assessment(row("metadata_stat", Verdict.HOLDS), row("seq_read", Verdict.NO_CHANGE));
    assertThat(a.overall()).isEqualTo("holds");
    assertThat(a.gate()).isEqualTo("pass");
  }

  @Test
  void everyMetricEquivalentReadsNoChangeAndPasses() {
    Assessment a = assessment(row("metadata_stat", Verdict.NO_CHANGE), row("seq_read", Verdict.NO_CHANGE));
    assertThat(a.overall()).isEqualTo("no_change");
    assertThat(a.gate()).isEqualTo("pass");
  }

  @Test
  void anUndecidedGatingMetricMakesTheGateInconclusiveAndSaysWhich() {
    Assessment a = assessment(row("metadata_stat", Verdict.IMPROVED), row("seq_read", Verdict.INCONCLUSIVE));
    assertThat(a.overall()).isEqualTo("inconclusive");
    assertThat(a.gate()).isEqualTo("inconclusive");
    assertThat(a.gateLabel()).isEqualTo("inconclusive (seq_read inconclusive (underpowered))");
  }

  @Test
  void aRegressionFailsTheGateWhateverElseHolds() {
    Assessment a = assessment(row("metadata_stat", Verdict.REGRESSED), row("seq_read", Verdict.HOLDS),
        row("boot_ms", Verdict.INCONCLUSIVE));
    assertThat(a.overall()).isEqualTo("regressed");
    assertThat(a.gate()).isEqualTo("fail");
    assertThat(a.gateLabel()).isEqualTo("fail (metadata_stat regressed)");
  }

  @Test
  void bootFailuresFailTheGateEvenWhenEveryMetricHolds() {
    Map<String, BootFailureComparison> boots = Map.of("b",
        new BootFailureComparison(0, 12, 6, 12, 0.007, Verdict.REGRESSED, ""));
    Assessment a = assessment(List.of(row("metadata_stat", Verdict.HOLDS)), boots);
    assertThat(a.gate()).isEqualTo("fail");
    assertThat(a.gateLabel()).isEqualTo("fail (b fails to boot more often)");
  }

  @Test
  void aMetricThatDoesNotGateDoesNotHoldTheGateBack() {
    Assessment a = assessment(row("metadata_stat", Verdict.HOLDS),
        row("seq_read", Verdict.INCONCLUSIVE, false, ""));
    assertThat(a.gate()).isEqualTo("pass");
  }

  @Test
  void classRowsDecideAndThePooledRowOnlySummarises() {
    Assessment a = assessment(row("seq_read", Verdict.INCONCLUSIVE, true, ""),
        row("seq_read", Verdict.HOLDS, true, "qemu/kvm"), row("seq_read", Verdict.NO_CHANGE, true, "vz/vz"));
    assertThat(a.gate()).isEqualTo("pass");
    Assessment b = assessment(row("seq_read", Verdict.HOLDS, true, ""),
        row("seq_read", Verdict.HOLDS, true, "qemu/kvm"), row("seq_read", Verdict.INCONCLUSIVE, true, "vz/vz"));
    assertThat(b.gateLabel()).isEqualTo("inconclusive (seq_read [vz/vz] inconclusive (underpowered))");
  }

  @Test
  void theReasonNamesTheUnitOfAMetricMeasuredInSeveralAndTheArmOfSeveral() {
    Comparison ns = row("Decode-8", Verdict.REGRESSED).comparison();
    Row nsPerOp = new Row("new", new Comparison(ns.metric(), "ns/op", Direction.LOWER, true, true, 6, 6, 0,
        100, 125, 0.25, 0.2, 0.3, 0.002, 0.02, Verdict.REGRESSED, List.of(), List.of(), ""), 0);
    Row mbPerS = new Row("new", new Comparison(ns.metric(), "MB/s", Direction.HIGHER, true, true, 6, 6, 0,
        100, 80, -0.2, -0.22, -0.18, 0.002, 0.02, Verdict.REGRESSED, List.of(), List.of(), ""), 0);
    assertThat(assessment(nsPerOp, mbPerS).gateLabel())
        .isEqualTo("fail (Decode-8 ns/op regressed, Decode-8 MB/s regressed)");
    Row other = new Row("other", row("Decode-8", Verdict.HOLDS).comparison(), 0);
    Row first = new Row("new", row("Decode-8", Verdict.IMPROVED).comparison(), 0);
    assertThat(assessment(first, other).gateLabel())
        .isEqualTo("pass (new/Decode-8 improved, other/Decode-8 holds)");
  }

  @Test
  void nothingToDecideHasNoGate() {
    assertThat(Assessment.EMPTY.gate()).isEmpty();
    assertThat(Assessment.EMPTY.gateLabel()).isEqualTo("undecided");
  }
}
