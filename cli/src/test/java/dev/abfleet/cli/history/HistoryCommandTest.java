package dev.abfleet.cli.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryCommandTest {
  @TempDir
  Path home;

  /** 20 nights around 1000 ops/s, a spike at night 4, a step down of 20% from night 12. */
  private void writeHistory() throws IOException {
    HistoryFile f = HistoryFile.of(home, "fuse-nightly");
    for (int i = 0; i < 20; i++) {
      double center = (i >= 12 ? 800 : 1000) * (1 + 0.005 * ((i * 7) % 5 - 2));
      if (i == 4) {
        center = 2500;
      }
      f.append(HistoryFileTest.entry("e" + i, center, i < 12));
    }
  }

  private String run(String... args) throws IOException {
    HistoryCommand cmd = new HistoryCommand();
    new picocli.CommandLine(cmd).parseArgs(args);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    cmd.print(home, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void textTableFlagsTheStepAndNotTheSpike() throws IOException {
    writeHistory();
    String text = run("metadata_stat");
    String[] lines = text.split("\n");
    assertThat(lines[0]).isEqualTo("metadata_stat, schedule fuse-nightly: 20 runs, 20 measured (series: candidate center,"
        + " ops/s, higher is better)");
    assertThat(lines[2 + 12]).startsWith(" 13  2026-03-10 02:30").contains("<- change -19.8% (1000 -> 802, p=0.001)");
    assertThat(text.lines().filter(l -> l.contains("<- change")).count()).isEqualTo(1);
    assertThat(lines[2 + 4]).contains("2500").doesNotContain("<- change");
    assertThat(text).contains("change points: 1");
  }

  @Test
  void jsonListsRunsAndTheChangePoint() throws IOException {
    writeHistory();
    JsonNode root = HistoryFile.JSON.readTree(run("metadata_stat", "--format", "json"));
    assertThat(root.get("runs")).hasSize(20);
    assertThat(root.get("runs").get(0).get("ci_low").isNull()).isTrue();
    JsonNode cp = root.get("change_points");
    assertThat(cp).hasSize(1);
    assertThat(cp.get(0).get("index").asInt()).isEqualTo(12);
    assertThat(cp.get(0).get("relative").asDouble()).isEqualTo(802.0 / 1000 - 1, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void unknownMetricListsTheMeasuredOnes() throws IOException {
    writeHistory();
    assertThatThrownBy(() -> run("seq_rd")).hasMessage("no run of schedule 'fuse-nightly' measured seq_rd; measured: metadata_stat");
  }

  @Test
  void noHistoryNamesTheFix() {
    assertThatThrownBy(() -> run("metadata_stat")).hasMessageContaining("run abfleet nightly first");
  }
}
