package dev.abfleet.cli.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryFileTest {
  @TempDir
  Path home;

  static HistoryEntry entry(String id, double center, boolean accepted) {
    return new HistoryEntry(1, "n", "2026-03-10T02:30:00Z", id, "completed",
        new HistoryEntry.Artifact("/k/base", "aa".repeat(32)), new HistoryEntry.Artifact("/k/" + id, "bb".repeat(32)),
        List.of(new HistoryEntry.Metric("metadata_stat", "ops/s", "higher", true, 1000, center,
            center / 1000 - 1, Double.NaN, 0.01, accepted ? "no_change" : "regressed")),
        accepted ? "no_change" : "regressed", accepted, "");
  }

  @Test
  void appendedEntriesReadBackInOrderWithNaN() throws IOException {
    HistoryFile f = HistoryFile.of(home, "n");
    f.append(entry("e1", 1000, true));
    f.append(entry("e2", 900, false));
    HistoryFile.Contents c = f.read();
    assertThat(c.entries()).containsExactly(entry("e1", 1000, true), entry("e2", 900, false));
    assertThat(c.entries().get(0).metrics().get(0).ciLow()).isNaN();
    assertThat(c.problems()).isEmpty();
    assertThat(Files.readString(f.path())).endsWith("\n").contains("\"experiment\":\"e1\"");
  }

  @Test
  void lastAcceptedSkipsRegressedRuns() throws IOException {
    HistoryFile f = HistoryFile.of(home, "n");
    f.append(entry("e1", 1000, true));
    f.append(entry("e2", 1010, true));
    f.append(entry("e3", 800, false));
    assertThat(f.read().lastAccepted()).map(HistoryEntry::experiment).contains("e2");
  }

  @Test
  void tornLastLineIsReportedNotCounted() throws IOException {
    HistoryFile f = HistoryFile.of(home, "n");
    f.append(entry("e1", 1000, true));
    Files.writeString(f.path(), "{\"version\":1,\"schedule\":\"n\",\"da", StandardOpenOption.APPEND);
    HistoryFile.Contents c = f.read();
    assertThat(c.entries()).hasSize(1);
    assertThat(c.tornTail()).isTrue();
    assertThat(c.problems()).singleElement().satisfies(p -> {
      assertThat(p.line()).isEqualTo(2);
      assertThat(p.message()).startsWith("torn last line (31 bytes");
    });
  }

  @Test
  void appendRefusesToGlueOntoATornLine() throws IOException {
    HistoryFile f = HistoryFile.of(home, "n");
    f.append(entry("e1", 1000, true));
    Files.writeString(f.path(), "{\"vers", StandardOpenOption.APPEND);
    assertThatThrownBy(() -> f.append(entry("e2", 1000, true))).hasMessageContaining("torn line");
  }

  @Test
  void repairMovesTheTornLineAsideAndAppendingWorksAgain() throws IOException {
    HistoryFile f = HistoryFile.of(home, "n");
    f.append(entry("e1", 1000, true));
    Files.writeString(f.path(), "{\"vers", StandardOpenOption.APPEND);
    assertThat(f.repairTornTail()).hasValueSatisfying(m -> assertThat(m).contains("torn last line of 6 bytes"));
    assertThat(Files.readString(f.path().resolveSibling("n.jsonl.torn"))).isEqualTo("{\"vers");
    f.append(entry("e2", 990, true));
    HistoryFile.Contents c = f.read();
    assertThat(c.entries()).extracting(HistoryEntry::experiment).containsExactly("e1", "e2");
    assertThat(c.problems()).isEmpty();
    assertThat(f.repairTornTail()).isEmpty();
  }

  @Test
  void corruptMiddleLineIsReportedAndTheRestKept() throws IOException {
    HistoryFile f = HistoryFile.of(home, "n");
    f.append(entry("e1", 1000, true));
    Files.writeString(f.path(), "not json\n", StandardOpenOption.APPEND);
    f.append(entry("e3", 1000, true));
    HistoryFile.Contents c = f.read();
    assertThat(c.entries()).extracting(HistoryEntry::experiment).containsExactly("e1", "e3");
    assertThat(c.problems()).singleElement().extracting(HistoryFile.Problem::line).isEqualTo(2);
  }

  @Test
  void missingFileIsAnEmptyHistory() throws IOException {
    HistoryFile.Contents c = HistoryFile.of(home, "none").read();
    assertThat(c.entries()).isEmpty();
    assertThat(c.lastAccepted()).isEmpty();
  }

  @Test
  void eachEntryIsExactlyOneLine() throws IOException {
    HistoryFile f = HistoryFile.of(home, "n");
    f.append(entry("e1", 1000, true));
    assertThat(Files.readAllLines(f.path(), StandardCharsets.UTF_8)).hasSize(1);
  }
}
