package dev.abfleet.cli.analyze;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalyzeCommandTest {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.run(args);
      return new Run(code, out.toString(StandardCharsets.UTF_8),
          err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  /** n pairs on one host; metric "stat" changes by ratio, "read" does not move. */
  static List<String> pairs(String experiment, int n, double ratio) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double noise = 1 + 0.002 * ((i * 7) % 5 - 2);
      for (String arm : new String[] {"base", "cand"}) {
        double f = arm.equals("cand") ? ratio : 1.0;
        lines.add(line(experiment, arm, i, "stat", 1000 * noise * f, "ops/s", "higher"));
        lines.add(line(experiment, arm, i, "read", 500 * noise, "ms", "lower"));
      }
    }
    return lines;
  }

  static String line(String experiment, String arm, int pair, String metric, double value,
      String unit, String better) {
    return String.format(Locale.ROOT, "{\"experiment\":\"%s\",\"arm\":\"%s\",\"host\":\"h1\","
        + "\"pair\":%d,\"boot\":\"%s-%d\",\"metric\":\"%s\",\"value\":%.4f,\"unit\":\"%s\","
        + "\"better\":\"%s\"}", experiment, arm, pair, arm, pair, metric, value, unit, better);
  }

  Path write(String name, List<String> lines) throws IOException {
    return Files.write(dir.resolve(name), lines);
  }

  @Test
  void pairedImprovementIsReportedWithThePublicJsonFields() throws IOException {
    Path f = write("s.jsonl", pairs("e1", 12, 1.2));
    Run r = run("analyze", "--format", "json", f.toString());
    assertThat(r.code()).isZero();
    JsonNode e = new ObjectMapper().readTree(r.out()).get("experiments").get(0);
    assertThat(e.get("experiment").asText()).isEqualTo("e1");
    assertThat(e.get("baseline").asText()).isEqualTo("base");
    assertThat(e.get("policy").get("looks").isArray()).isTrue();
    JsonNode c = e.get("comparisons").get(0);
    for (String field : List.of("arm", "metric", "unit", "better", "n_baseline", "n_candidate",
        "n_pairs", "baseline_center", "candidate_center", "change", "ci_low", "ci_high",
        "p_value", "p_adjusted", "adjustment", "verdict", "reasons", "warnings")) {
      assertThat(c.has(field)).as(field).isTrue();
    }
    assertThat(c.get("metric").asText()).isEqualTo("stat");
    // 12 pairs, a fixed design: the gating metrics are decided together.
    assertThat(c.get("adjustment").asText()).isEqualTo("maxT");
    assertThat(c.get("n_pairs").asInt()).isEqualTo(12);
    assertThat(c.get("change").asDouble()).isBetween(0.19, 0.21);
    assertThat(c.get("verdict").asText()).isEqualTo("improved");
    assertThat(e.get("overall").asText()).isEqualTo("improved");
  }

  @Test
  void gateExitsOneWhenAGatingMetricRegressed() throws IOException {
    Path f = write("s.jsonl", pairs("e1", 12, 0.8));
    assertThat(run("analyze", "--gate", f.toString()).code()).isEqualTo(ExitCodes.GATE);
    assertThat(run("analyze", f.toString()).code()).isZero();
  }

  @Test
  void gateExitsZeroOnPassAndFourWhenInconclusive() throws IOException {
    // +20% on stat, read unchanged: the gate passes
    Path pass = write("pass.jsonl", pairs("e1", 12, 1.2));
    Run passed = run("analyze", "--gate", pass.toString());
    assertThat(passed.out()).contains("gate: pass (");
    assertThat(passed.code()).isEqualTo(ExitCodes.OK);
    // 3 pairs decide nothing: no interval, so no metric is shown to hold
    Path few = write("few.jsonl", pairs("e2", 3, 1.0));
    Run undecided = run("analyze", "--gate", few.toString());
    assertThat(undecided.out()).contains("gate: inconclusive (");
    assertThat(undecided.code()).isEqualTo(ExitCodes.GATE_INCONCLUSIVE);
    assertThat(run("analyze", few.toString()).code()).isZero();
  }

  @Test
  void badLineExitsTwoNamingFileAndLine() throws IOException {
    List<String> lines = new ArrayList<>(pairs("e1", 8, 1.0));
    lines.add(3, "{\"arm\":\"base\",\"boot\":\"b\",\"metric\":\"stat\",\"value\":\"fast\"}");
    Path f = write("bad.jsonl", lines);
    Run r = run("analyze", f.toString());
    assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err().strip()).startsWith("abfleet: " + f + ":4: metric stat: 'value' must be"
        + " a number");
    assertThat(r.err().strip().lines().count()).isEqualTo(1);
  }

  @Test
  void unknownBaselineArmIsBadInput() throws IOException {
    Path f = write("s.jsonl", pairs("e1", 8, 1.0));
    Run r = run("analyze", "--baseline", "nope", f.toString());
    assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).contains("no arm 'nope'; its arms are base, cand");
  }

  @Test
  void experimentsSharingAFileAreAnalysedEachOnItsOwn() throws IOException {
    List<String> lines = new ArrayList<>(pairs("e1", 10, 1.2));
    lines.addAll(pairs("e2", 10, 0.8));
    Run r = run("analyze", "--format", "json", write("two.jsonl", lines).toString());
    JsonNode ex = new ObjectMapper().readTree(r.out()).get("experiments");
    assertThat(ex.size()).isEqualTo(2);
    assertThat(ex.get(0).get("overall").asText()).isEqualTo("improved");
    assertThat(ex.get(1).get("overall").asText()).isEqualTo("regressed");
  }

  @Test
  void goBenchmarkFilesAreArmsComparedUnpairedOneMetricPerUnit() throws IOException {
    List<String> old = new ArrayList<>(List.of("goos: linux", "pkg: example"));
    List<String> neu = new ArrayList<>(old);
    for (int i = 0; i < 10; i++) {
      double jitter = 1 + 0.003 * (i % 4);
      old.add(String.format(Locale.ROOT, "BenchmarkStat-8   \t 1000\t %.1f ns/op\t 64 B/op",
          100 * jitter));
      neu.add(String.format(Locale.ROOT, "BenchmarkStat-8   \t 1000\t %.1f ns/op\t 64 B/op",
          80 * jitter));
    }
    Path a = write("old.txt", old);
    Path b = write("new.txt", neu);
    Run r = run("analyze", "--input-format", "gobench", "--format", "json", a.toString(),
        b.toString());
    JsonNode e = new ObjectMapper().readTree(r.out()).get("experiments").get(0);
    assertThat(e.get("baseline").asText()).isEqualTo("old");
    assertThat(e.get("design").asText()).isEqualTo("unpaired");
    JsonNode ns = e.get("comparisons").get(0);
    assertThat(ns.get("metric").asText()).isEqualTo("Stat-8");
    assertThat(ns.get("unit").asText()).isEqualTo("ns/op");
    assertThat(ns.get("n_pairs").asInt()).isZero();
    assertThat(ns.get("n_baseline").asInt()).isEqualTo(10);
    assertThat(ns.get("verdict").asText()).isEqualTo("improved");
    assertThat(e.get("comparisons").get(1).get("unit").asText()).isEqualTo("B/op");
    assertThat(e.get("comparisons").get(1).get("verdict").asText()).isEqualTo("no_change");
  }

  @Test
  void markdownIsAPasteableTable() throws IOException {
    Run r = run("analyze", "--format", "markdown", write("s.jsonl", pairs("e1", 12, 1.2))
        .toString());
    assertThat(r.out()).contains("| metric | baseline | candidate | change | CI (95% joint) | p (adj.) | verdict |")
        .contains("**improved**");
  }

  @Test
  void textOutputMatchesGoldenFile() throws IOException {
    Run r = run("analyze", write("s.jsonl", pairs("e1", 12, 1.2)).toString());
    String golden = new String(getClass().getResourceAsStream("/analyze/text-golden.txt")
        .readAllBytes(), StandardCharsets.UTF_8);
    assertThat(r.out()).isEqualTo(golden);
  }

  @Test
  void unknownOutputFormatIsBadInput() throws IOException {
    Run r = run("analyze", "--format", "xml", write("s.jsonl", pairs("e1", 8, 1)).toString());
    assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).contains("--format 'xml': expected text, json, markdown or html");
  }
  @Test
  void htmlPutsEveryExperimentInOnePageWithItsTables() throws IOException {
    List<String> lines = new ArrayList<>(pairs("e1", 12, 1.2));
    lines.addAll(pairs("e2", 12, 1.0));
    Run r = run("analyze", "--format", "html", write("s.jsonl", lines).toString());

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("<!DOCTYPE html>").endsWith("</html>\n")
        .containsOnlyOnce("<!DOCTYPE html>").containsSubsequence("<h1>e1: base vs cand", "<h1>e2: base vs cand")
        .contains("No per-boot charts: these boots were recorded elsewhere.");
    assertThat(r.out().split("<table class=\"verdicts\">", -1)).hasSize(3);
  }

}
