package dev.abfleet.worker.guest;

import dev.abfleet.model.WorkloadMetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.abfleet.worker.guest.WorkloadOutput.Format;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadOutputTest {

  private static List<WorkloadLine> lines(String... text) {
    List<WorkloadLine> out = new ArrayList<>();
    for (int i = 0; i < text.length; i++) {
      out.add(new WorkloadLine(i + 2, text[i], false));
    }
    return out;
  }

  @Test
  void jsonlLinesAreSamplesNumberedPerMetric() {
    WorkloadOutput.Parsed p = WorkloadOutput.parse(Format.JSONL, lines(
        "{\"metric\":\"open_close\",\"value\":1.5,\"unit\":\"ops/s\",\"better\":\"higher\",\"warmup\":true}",
        "{\"metric\":\"open_close\",\"value\":2.5,\"unit\":\"ops/s\",\"better\":\"higher\"}",
        "",
        "{\"metric\":\"latency\",\"value\":7,\"unit\":\"us\",\"better\":\"lower\"}\r",
        "{\"metric\":\"open_close\",\"value\":3.5,\"unit\":\"ops/s\",\"better\":\"higher\",\"iteration\":9}"));

    assertThat(p.errors()).isEmpty();
    assertThat(p.firstBad()).isEmpty();
    assertThat(p.samples()).extracting(GuestSample::metric, GuestSample::value, GuestSample::iteration,
        GuestSample::warmup, GuestSample::better).containsExactly(
        tuple("open_close", 1.5, 0, true, Better.HIGHER),
        tuple("open_close", 2.5, 1, false, Better.HIGHER),
        tuple("latency", 7.0, 0, false, Better.LOWER),
        tuple("open_close", 3.5, 2, false, Better.HIGHER));
  }

  @Test
  void goBenchLinesGiveOneMetricPerUnitNamedNameUnderscoreUnit() {
    WorkloadOutput.Parsed p = WorkloadOutput.parse(Format.GOBENCH, lines(
        "goos: linux",
        "BenchmarkStat-2   1000   2400 ns/op   410.5 MB/s",
        "BenchmarkStat-2   1000   2500 ns/op   400.0 MB/s",
        "PASS"));

    assertThat(p.errors()).isEmpty();
    assertThat(p.samples()).extracting(GuestSample::metric, GuestSample::unit, GuestSample::better,
        GuestSample::iteration).containsExactly(
        tuple("Stat-2_ns/op", "ns/op", Better.LOWER, 0),
        tuple("Stat-2_MB/s", "MB/s", Better.HIGHER, 0),
        tuple("Stat-2_ns/op", "ns/op", Better.LOWER, 1),
        tuple("Stat-2_MB/s", "MB/s", Better.HIGHER, 1));
  }

  @Test
  void aMalformedJsonlLineIsAnErrorQuotingItAndTheRestStillCount() {
    WorkloadOutput.Parsed p = WorkloadOutput.parse(Format.JSONL, lines(
        "{\"metric\":\"a\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"higher\"}",
        "oops: no json here"));

    assertThat(p.samples()).hasSize(1);
    assertThat(p.firstBad()).hasValueSatisfying(b -> {
      assertThat(b.stdoutLine()).isEqualTo(2);
      assertThat(b.describe()).startsWith("stdout line 2 'oops: no json here' (not a JSON object");
    });
    assertThat(p.errors()).singleElement().satisfies(e -> {
      assertThat(e.lineNumber()).as("the results channel line").isEqualTo(3);
      assertThat(e.message()).startsWith("workload stdout line 2 'oops: no json here'");
    });
  }

  @Test
  void jsonlFieldsAreChecked() {
    String[] bad = {
        "{\"metric\":\"a b\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"higher\"}",
        "{\"metric\":\"a\",\"value\":\"1\",\"unit\":\"ops/s\",\"better\":\"higher\"}",
        "{\"metric\":\"a\",\"value\":NaN,\"unit\":\"ops/s\",\"better\":\"higher\"}",
        "{\"metric\":\"a\",\"value\":1,\"better\":\"higher\"}",
        "{\"metric\":\"a\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"up\"}",
        "{\"metric\":\"a\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"higher\",\"warmup\":1}",
        "[1,2]",
        "{\"metric\":\"a\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"higher\"} trailing"};
    for (String line : bad) {
      WorkloadOutput.Parsed p = WorkloadOutput.parse(Format.JSONL, lines(line));
      assertThat(p.samples()).as(line).isEmpty();
      assertThat(p.errors()).as(line).hasSize(1);
    }
  }

  @Test
  void aMetricKeepsTheUnitAndDirectionOfItsFirstLine() {
    WorkloadOutput.Parsed p = WorkloadOutput.parse(Format.JSONL, lines(
        "{\"metric\":\"a\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"higher\"}",
        "{\"metric\":\"a\",\"value\":1,\"unit\":\"MB/s\",\"better\":\"higher\"}"));

    assertThat(p.samples()).hasSize(1);
    assertThat(p.firstBad().orElseThrow().problem())
        .isEqualTo("metric a was first reported in ops/s (higher is better); a metric keeps one unit and direction");
  }

  @Test
  void aGoBenchNameOutsideTheNameRuleIsAnErrorAndTheLineGivesNoSample() {
    WorkloadOutput.Parsed p = WorkloadOutput.parse(Format.GOBENCH, lines(
        "BenchmarkSplit/a,b-2   10   5 ns/op",
        "BenchmarkOk-2   10   5 ns/op   NaN MB/s"));

    assertThat(p.samples()).isEmpty();
    assertThat(p.errors()).hasSize(2);
    assertThat(p.firstBad().orElseThrow().problem()).contains("metric name 'Split/a,b-2_ns/op' is not valid");
  }

  @Test
  void aLineCutByTheGuestIsAnError() {
    List<WorkloadLine> cut = List.of(new WorkloadLine(2, "{\"metric\":\"a\",\"val", true));

    assertThat(WorkloadOutput.parse(Format.JSONL, cut).firstBad().orElseThrow().problem()).contains("cut");
  }

  @Test
  void quotesAreCutToTwoHundredCharactersWithControlCharactersShown() {
    String quote = WorkloadOutput.quote("\u0007" + "x".repeat(500));

    assertThat(quote).hasSize(WorkloadOutput.MAX_QUOTE + 2).startsWith("'?xx").endsWith("...'");
  }

  @Test
  void keepsTheFirstTwentyErrorsAndCountsTheRest() {
    String[] garbage = new String[50];
    java.util.Arrays.fill(garbage, "garbage");

    WorkloadOutput.Parsed p = WorkloadOutput.parse(Format.JSONL, lines(garbage));

    assertThat(p.errors()).hasSize(20);
    assertThat(p.errorsOmitted()).isEqualTo(30);
  }

  @Test
  void formatsAreReadFromTheirWireNamesWithJsonlTheDefault() {
    assertThat(Format.fromWire("")).contains(Format.JSONL);
    assertThat(Format.fromWire("jsonl")).contains(Format.JSONL);
    assertThat(Format.fromWire("gobench")).contains(Format.GOBENCH);
    assertThat(Format.fromWire("csv")).isEmpty();
  }

  @Test
  void metricNamesFollowOneRule() {
    assertThat(WorkloadMetrics.nameProblem("Stat-2_ns/op")).isEmpty();
    assertThat(WorkloadMetrics.nameProblem("metadata_stat")).isEmpty();
    assertThat(WorkloadMetrics.nameProblem("Decode/json=small-8_B/op")).isEmpty();
    for (String bad : new String[] {"", "a b", "a,b", "a|b", "-a", "\"a\"", "x".repeat(129)}) {
      assertThat(WorkloadMetrics.nameProblem(bad)).as(bad).isPresent();
    }
  }
}
