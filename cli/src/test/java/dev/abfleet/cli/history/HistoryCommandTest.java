package dev.abfleet.cli.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.abfleet.cli.nightly.NightlyClient;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code abfleet history} against an in-process controller: an old history file is imported
 * (ImportHistory), and the series comes back from GetSeries with its change points.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HistoryCommandTest {
  ControllerNode controller;
  NightlyClient client;
  Path file;

  /** 20 nights around 1000 ops/s, a spike at night 4, a step down of 20% from night 12. */
  @BeforeAll
  void importHistory(@TempDir Path dir) throws IOException {
    controller = ControllerNode.start(ControllerSettings.inMemory(),
        new ArtifactStoreSettings(dir.resolve("artifacts"), 1 << 30));
    client = new NightlyClient("127.0.0.1:" + controller.grpcPort());
    file = dir.resolve("home").resolve("history").resolve("fuse-nightly.jsonl");
    HistoryFile f = new HistoryFile(file);
    for (int i = 0; i < 20; i++) {
      double center = (i >= 12 ? 800 : 1000) * (1 + 0.005 * ((i * 7) % 5 - 2));
      if (i == 4) {
        center = 2500;
      }
      f.append(night(i, center));
    }
    Files.writeString(file, "{not json\n", java.nio.file.StandardOpenOption.APPEND);
  }

  @AfterAll
  void stop() {
    client.close();
    controller.close();
  }

  static HistoryEntry night(int i, double center) {
    HistoryEntry e = HistoryFileTest.entry("fuse-nightly-" + i, center, center > 900);
    String date = java.time.Instant.parse("2026-03-10T02:30:00Z").plusSeconds(86_400L * i).toString();
    return new HistoryEntry(e.version(), "fuse-nightly", date, e.experiment(), e.state(), e.baseline(),
        e.candidate(), e.metrics(), e.overall(), e.accepted(), e.message());
  }

  private String importFile() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    HistoryImportCommand.importFiles(client, List.of(file), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
  }

  private String run(String... args) throws IOException {
    assertThat(importFile()).isNotEmpty();
    HistoryCommand cmd = new HistoryCommand();
    new picocli.CommandLine(cmd).parseArgs(args);
    cmd.checkOptions();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    cmd.print(client, new PrintStream(out, true, StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void importingTwiceAddsNothingAndReportsTheUnreadableLine() throws IOException {
    importFile();
    String again = importFile();
    assertThat(again).contains("fuse-nightly.jsonl: 0 run(s) added, 20 already known, 1 unreadable line(s)")
        .contains("fuse-nightly.jsonl:21: not a history entry");
    assertThat(MetricHistory.of(client.series(dev.abfleet.proto.fleet.v1.GetSeriesRequest.newBuilder()
        .setSchedule("fuse-nightly").setMetric("metadata_stat").build())).runs()).hasSize(20);
  }

  @Test
  void textTableFlagsTheStepAndNotTheSpike() throws IOException {
    String text = run("metadata_stat", "--schedule", "fuse-nightly");
    String[] lines = text.split("\n");
    assertThat(lines[0]).isEqualTo("metadata_stat, schedule fuse-nightly: 20 runs, 20 measured (series: candidate center,"
        + " ops/s, higher is better)");
    assertThat(lines[2 + 12]).startsWith(" 13  2026-03-22 02:30").contains("<- change -19.8% (1000 -> 802, p=0.001)");
    assertThat(text.lines().filter(l -> l.contains("<- change")).count()).isEqualTo(1);
    assertThat(lines[2 + 4]).contains("2500").doesNotContain("<- change");
    assertThat(text).contains("change points: 1");
  }

  @Test
  void jsonListsRunsAndTheChangePoint() throws IOException {
    JsonNode root = HistoryFile.JSON.readTree(run("metadata_stat", "--schedule", "fuse-nightly", "--format", "json"));
    assertThat(root.get("runs")).hasSize(20);
    assertThat(root.get("runs").get(0).get("ci_low").isNull()).isTrue();
    JsonNode cp = root.get("change_points");
    assertThat(cp).hasSize(1);
    assertThat(cp.get(0).get("run").asInt()).as("numbered from 1, as the text table").isEqualTo(13);
    assertThat(root.get("runs").get(12).get("run").asInt()).isEqualTo(13);
    assertThat(cp.get(0).get("relative").asDouble()).isEqualTo(802.0 / 1000 - 1, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void analyzingTheSameValuesFromACsvFileFindsTheSameChangePoints(@TempDir Path dir) throws IOException {
    String fromController = run("metadata_stat", "--schedule", "fuse-nightly");
    MetricHistory h = MetricHistory.of(client.series(dev.abfleet.proto.fleet.v1.GetSeriesRequest.newBuilder()
        .setSchedule("fuse-nightly").setMetric("metadata_stat").build()));
    StringBuilder csv = new StringBuilder("date,value,label\n");
    for (int i = 0; i < h.values().length; i++) {
      csv.append(h.runs().get(i).date()).append(',').append(h.values()[i]).append(",night-").append(i).append('\n');
    }
    Path file = Files.writeString(dir.resolve("series.csv"), csv);
    HistoryAnalyzeCommand analyze = new HistoryAnalyzeCommand();
    new picocli.CommandLine(analyze).parseArgs(file.toString(), "--name", "metadata_stat", "--unit", "ops/s");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    analyze.print(new PrintStream(out, true, StandardCharsets.UTF_8));
    String offline = out.toString(StandardCharsets.UTF_8);

    assertThat(changes(offline)).hasSize(1).isEqualTo(changes(fromController));
    assertThat(offline).contains(" 13  2026-03-22T02:30:00Z  night-12").contains("change points: 1");
  }

  /** The change marks of a text table: what follows "<- change" on each flagged line. */
  private static List<String> changes(String text) {
    return text.lines().filter(l -> l.contains("<- change")).map(l -> l.substring(l.indexOf("<- change"))).toList();
  }

  @Test
  void aMinimumChangeAboveTheStepLeavesItUnflaggedAndSaysSo() throws IOException {
    String text = run("metadata_stat", "--schedule", "fuse-nightly", "--min-change", "25%");
    assertThat(text).doesNotContain("<- change").contains("no change point (changes below 25.0% not flagged)");
    assertThat(run("metadata_stat", "--schedule", "fuse-nightly", "--min-change", "0.1")).contains("<- change -19.8%");
    assertThatThrownBy(() -> run("metadata_stat", "--schedule", "fuse-nightly", "--min-change", "150%"))
        .hasMessageContaining("--min-change 150%: expected a relative change above 0 and below 1");
  }

  @Test
  void unknownMetricListsTheMeasuredOnes() {
    assertThatThrownBy(() -> run("seq_rd", "--schedule", "fuse-nightly"))
        .hasMessage("no run of schedule 'fuse-nightly' measured seq_rd; measured: metadata_stat");
  }

  @Test
  void unknownScheduleNamesTheKnownOnes() {
    assertThatThrownBy(() -> run("metadata_stat", "--schedule", "fuse-nighty"))
        .hasMessage("no schedule 'fuse-nighty' and no runs of it; known: fuse-nightly");
  }

  @Test
  void withoutScheduleAControllerRunningNoneAsksForOne() {
    assertThatThrownBy(() -> run("metadata_stat"))
        .hasMessage("the controller runs no schedules; name the schedule of imported runs with --schedule NAME");
  }

  @Test
  void importIsASubcommandAndAMetricStaysAnArgument() {
    var parsed = new picocli.CommandLine(new HistoryCommand())
        .parseArgs("import", "--controller", "127.0.0.1:7070", "a.jsonl", "b.jsonl");
    assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("import");
    HistoryImportCommand imp = (HistoryImportCommand) parsed.subcommand().commandSpec().userObject();
    assertThat(imp.files).containsExactly(Path.of("a.jsonl"), Path.of("b.jsonl"));
    HistoryCommand history = new HistoryCommand();
    new picocli.CommandLine(history).parseArgs("seq_read", "--controller", "127.0.0.1:7070", "--series", "change");
    assertThat(history.metric).isEqualTo("seq_read");
    assertThat(history.series).isEqualTo("change");
  }

  @Test
  void withoutFilesImportTakesEveryHistoryFileOfTheHome(@TempDir Path home) throws IOException {
    Files.createDirectories(home.resolve("history"));
    Files.writeString(home.resolve("history").resolve("b.jsonl"), "");
    Files.writeString(home.resolve("history").resolve("a.jsonl"), "");
    Files.writeString(home.resolve("history").resolve("a.jsonl.torn"), "");
    assertThat(HistoryImportCommand.defaultFiles(home)).extracting(p -> p.getFileName().toString())
        .containsExactly("a.jsonl", "b.jsonl");
    assertThatThrownBy(() -> HistoryImportCommand.defaultFiles(home.resolve("nowhere")))
        .hasMessageContaining("does not exist; give the files to import");
  }

  @Test
  void badOptionsAreNamed() {
    assertThatThrownBy(() -> run("metadata_stat", "--series", "median")).hasMessage("--series median: expected center or change");
  }
}
