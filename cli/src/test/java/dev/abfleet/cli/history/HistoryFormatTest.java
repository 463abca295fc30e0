package dev.abfleet.cli.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryFormatTest {
  @TempDir
  Path home;

  static HistoryEntry simulated(String id, double center) {
    HistoryEntry e = HistoryFileTest.entry(id, center, true);
    return new HistoryEntry(e.version(), e.schedule(), e.date(), e.experiment(), e.state(), e.baseline(),
        e.candidate(), e.metrics(), e.overall(), e.accepted(), e.message(), true);
  }

  /** The series of two runs as the controller answers it: centers, no change point. */
  private static MetricHistory history(HistoryEntry a, HistoryEntry b) {
    return new MetricHistory("n", "metadata_stat", "center", "ops/s", "higher", List.of(a, b),
        new double[] {a.metrics().get(0).candidateCenter(), b.metrics().get(0).candidateCenter()}, List.of(), List.of(), 0, false);
  }

  @Test
  void simulatedRunsAreLabelledInTextAndJson() {
    MetricHistory h = history(HistoryFileTest.entry("real", 1000, true), simulated("sim", 1010));

    String text = HistoryFormat.text(h);
    assertThat(text).startsWith("SIMULATION: runs marked sim came from the sim hypervisor's performance model");
    assertThat(text.lines().filter(l -> l.endsWith("  sim"))).hasSize(1);
    assertThat(HistoryFormat.json(h)).containsOnlyOnce("\"simulation\" : true");
  }

  @Test
  void aRealHistorySaysNothingAboutSimulation() {
    MetricHistory h = history(HistoryFileTest.entry("a", 1000, true), HistoryFileTest.entry("b", 1001, true));

    assertThat(HistoryFormat.text(h)).doesNotContain("SIMULATION");
    assertThat(HistoryFormat.json(h)).doesNotContain("simulation");
  }

  @Test
  void theSimulationMarkSurvivesTheFile() throws IOException {
    HistoryFile f = HistoryFile.of(home, "n");
    f.append(simulated("sim", 1000));
    f.append(HistoryFileTest.entry("real", 1000, true));

    assertThat(f.read().entries()).extracting(HistoryEntry::simulation).containsExactly(true, false);
  }

  @Test
  void theSimulationMarkSurvivesTheWayToTheControllerAndBack() {
    HistoryEntry e = simulated("sim", 1000);
    assertThat(HistoryRuns.fromProto(HistoryRuns.toProto(e))).isEqualTo(e);
  }

  @Test
  void heldRunsShowAsHeldWithTheirReasonInTextAndJson() {
    HistoryEntry a = HistoryFileTest.entry("night-1", 1000, true);
    HistoryEntry b = HistoryFileTest.entry("night-2", 897, false);
    HistoryEntry held = new HistoryEntry(b.version(), b.schedule(), b.date(), b.experiment(), b.state(), b.baseline(),
        b.candidate(), b.metrics(), "inconclusive", false, "", false, "held", "gate",
        "gate inconclusive: metadata_stat -10.3% [-31.5%, +4.1%] inconclusive");
    MetricHistory h = history(a, held);

    String text = HistoryFormat.text(h);
    assertThat(text).contains("verdict       decision\n");
    assertThat(text.lines().filter(l -> l.startsWith("  2 "))).singleElement()
        .satisfies(l -> assertThat(l).endsWith("  held"));
    assertThat(text.lines().filter(l -> l.startsWith("  1 "))).singleElement()
        .satisfies(l -> assertThat(l).as("a run without a decision shows accepted").endsWith("  yes"));
    assertThat(text).contains("1 run is held (gate inconclusive; the baseline did not move): abfleet nightly"
        + " accept|reject RUN\n  held night-2: gate inconclusive: metadata_stat -10.3% [-31.5%, +4.1%] inconclusive\n");
    String json = HistoryFormat.json(h);
    assertThat(json).contains("\"decision\" : \"held\"", "\"decided_by\" : \"gate\"",
        "\"decision_reason\" : \"gate inconclusive: metadata_stat -10.3% [-31.5%, +4.1%] inconclusive\"");
    assertThat(HistoryRuns.fromProto(HistoryRuns.toProto(held))).isEqualTo(held);
  }
}
