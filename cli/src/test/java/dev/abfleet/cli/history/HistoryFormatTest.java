package dev.abfleet.cli.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.changepoint.Settings;
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

  @Test
  void simulatedRunsAreLabelledInTextAndJson() {
    MetricHistory h = MetricHistory.of("n", "metadata_stat", "center",
        List.of(HistoryFileTest.entry("real", 1000, true), simulated("sim", 1010)), Settings.DEFAULT);

    String text = HistoryFormat.text(h);
    assertThat(text).startsWith("SIMULATION: runs marked sim came from the sim hypervisor's performance model");
    assertThat(text.lines().filter(l -> l.endsWith("  sim"))).hasSize(1);
    assertThat(HistoryFormat.json(h)).containsOnlyOnce("\"simulation\" : true");
  }

  @Test
  void aRealHistorySaysNothingAboutSimulation() {
    MetricHistory h = MetricHistory.of("n", "metadata_stat", "center",
        List.of(HistoryFileTest.entry("a", 1000, true), HistoryFileTest.entry("b", 1001, true)), Settings.DEFAULT);

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
}
