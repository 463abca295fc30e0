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
}
