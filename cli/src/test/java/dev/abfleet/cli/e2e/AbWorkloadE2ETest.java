package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code abfleet ab} with user workloads on Debian's 6.1 cloud kernel in real QEMU (TCG here):
 * the example Go-benchmark workload (examples/gobench-workload, built here) A/B of the stock
 * kernel against the same kernel with {@code slub_debug=FZPU}, its metrics reported with verdicts
 * in JSON, text and Markdown; and the deliberately broken example, whose boots fail as HARNESS
 * quoting the line it printed.
 */
@Tag("e2e")
class AbWorkloadE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EXAMPLES = Path.of("..", "examples");
  /** The example's benchmarks on 1 vCPU, one metric per unit. */
  private static final List<String> METRICS = List.of("Stat-1_ns/op", "OpenClose-1_ns/op", "CreateUnlink-1_ns/op",
      "WriteRead64K-1_ns/op", "WriteRead64K-1_MB/s");
  private static final List<String> VERDICTS = List.of("improved", "regressed", "no change", "no_change", "holds",
      "inconclusive");

  @TempDir static Path dir;
  private static Path fleet;
  private static Path kernel;

  /** The example copied and built here, and a fleet.yaml whose benchmark runs it (own store: no lock contention). */
  @BeforeAll
  static void buildTheExample() throws Exception {
    copy(EXAMPLES.resolve("gobench-workload"), dir.resolve("gobench-workload"));
    copy(EXAMPLES.resolve("gobench-workload-broken"), dir.resolve("gobench-workload-broken"));
    ProcessBuilder build = new ProcessBuilder("sh", "build.sh").directory(dir.resolve("gobench-workload").toFile())
        .redirectErrorStream(true).redirectOutput(dir.resolve("build.log").toFile());
    build.environment().put("CC", "gcc");
    Process p = build.start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(Cli.read(dir.resolve("build.log"))).isZero();
    fleet = Files.writeString(dir.resolve("fleet.yaml"), String.join("\n",
        "controller:",
        "  store: {path: " + dir.resolve("store") + "}",
        "benchmarks:",
        "  gobench:",
        "    workload: {files: gobench-workload, run: sh /workload/run.sh, output: gobench, timeout_s: 120}",
        "    gating: [Stat-1_ns/op, OpenClose-1_ns/op]",
        ""));
    kernel = Kernels.cloud();
  }

  private static Cli.Result ab(String format) throws Exception {
    return Cli.run(dir, 15, "ab", "--config", fleet.toString(), "--benchmark", "gobench",
        "--baseline", "stock=" + kernel, "--candidate", "slub=" + kernel + ":slub_debug=FZPU",
        "--pairs", "6", "--format", format);
  }

  @Test
  void theWorkloadsMetricsGetVerdictsAndTheRunsCountersInTheJsonReport() throws Exception {
    Cli.Result r = ab("json");

    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.get("state").asText()).isEqualTo("completed");
    assertThat(report.get("pairs_done").asInt()).isEqualTo(6);
    assertThat(report.get("comparisons")).extracting(c -> c.get("metric").asText())
        .containsExactlyInAnyOrderElementsOf(METRICS);
    for (JsonNode c : report.get("comparisons")) {
      String metric = c.get("metric").asText();
      assertThat(c.get("verdict").asText()).as(c.toString()).isIn(VERDICTS);
      assertThat(c.get("better").asText()).as(metric).isEqualTo(metric.endsWith("MB/s") ? "higher" : "lower");
      assertThat(c.get("gating").asBoolean()).as(metric).isEqualTo(metric.startsWith("Stat") || metric.startsWith("Open"));
    }
    // Slab debugging makes every stat and open/close allocate through the checked slow path.
    assertThat(row(report, "Stat-1_ns/op").get("change").asDouble()).isGreaterThan(0.5);
    assertThat(row(report, "OpenClose-1_ns/op").get("change").asDouble()).isGreaterThan(0.5);
    for (JsonNode b : report.get("boots")) {
      assertThat(b.get("status").asText()).as(b.toString()).isEqualTo("ok");
      assertThat(b.get("values").get("Stat-1_ns/op")).as(b.toString()).hasSize(3);
      for (String metric : METRICS) {
        JsonNode t = b.get("telemetry").get(metric);
        assertThat(t).as(metric + " of " + b.get("run_id")).isNotNull();
        assertThat(t.get("work").asDouble()).isEqualTo(1.0);
        assertThat(t.get("work_unit").asText()).isEqualTo("run");
        assertThat(t.get("context_switches").asLong()).isPositive();
      }
    }
  }

  @Test
  void theWorkloadsMetricsGetVerdictsInTheTextAndMarkdownReports() throws Exception {
    Cli.Result text = ab("text");
    assertThat(text.exit()).as(text.err()).isZero();
    Cli.Result markdown = ab("markdown");
    assertThat(markdown.exit()).as(markdown.err()).isZero();

    String verdictTable = markdown.out().split("Guest counters")[0];
    for (String metric : METRICS) {
      assertThat(text.out().lines().filter(l -> l.startsWith(metric + " ")))
          .as(metric + " in\n" + text.out()).singleElement().satisfies(l -> assertThat(VERDICTS).anyMatch(l::contains));
      assertThat(verdictTable.lines().filter(l -> l.startsWith("| " + metric + " ")))
          .as(metric + " in\n" + markdown.out()).singleElement()
          .satisfies(l -> assertThat(VERDICTS).anyMatch(l::contains));
    }
  }

  @Test
  void theBrokenExampleFailsEveryBootAsHarnessQuotingItsMalformedLine() throws Exception {
    Path spec = Files.writeString(dir.resolve("broken.yaml"), String.join("\n",
        "benchmark: gobench",
        "pairs: 1",
        "workload: {files: gobench-workload-broken, run: sh /workload/run.sh, output: gobench, timeout_s: 60}",
        "arms:",
        "  - {name: stock, role: baseline, kernel: " + kernel + "}",
        // The same kernel as both arms: an A/A run, which the design check lets run at one pair.
        "  - {name: twin, role: candidate, kernel: " + kernel + "}",
        ""));

    Cli.Result r = Cli.run(dir, 10, "ab", "--config", fleet.toString(), "--spec", spec.toString(),
        "--format", "json");

    JsonNode report = JSON.readTree(r.out());
    assertThat(AaReports.pairedBoots(report)).hasSize(2);
    for (JsonNode b : AaReports.pairedBoots(report)) {
      assertThat(b.get("status").asText()).as(b.toString()).isEqualTo("harness_failed");
      assertThat(b.get("message").asText()).isEqualTo("workload exited with status 3; first bad line:"
          + " stdout line 2 'BenchmarkStat-1  1000  fast ns/op' (value 'fast' is not a number;"
          + " expected 'BenchmarkName N value unit [value unit ...]')");
    }
    assertThat(r.err()).contains("HARNESS_FAILED: workload exited with status 3").doesNotContain("\tat ");
  }

  private static JsonNode row(JsonNode report, String metric) {
    for (JsonNode c : report.get("comparisons")) {
      if (c.get("metric").asText().equals(metric) && c.get("host_class").asText().isEmpty()) {
        return c;
      }
    }
    throw new AssertionError("no row " + metric + " in " + report.get("comparisons"));
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.sorted().toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().equals("bench")) {
          Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}
