package dev.abfleet.cli.analyze.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Samples that contradict each other are rejected with both lines named. */
class SampleChecksTest {
  /** The errors of reading {@code lines} as one file, in.jsonl. */
  private static List<String> errors(String... lines) throws IOException {
    Parsed p = JsonlReader.read("in.jsonl", TextLines.of(String.join("\n", lines) + "\n"), 0);
    assertThat(p.errors()).isEmpty();
    return SampleChecks.check(p.samples()).stream().map(ParseError::toString).toList();
  }

  private static String line(String boot, String metric, double value, String unit, String extra) {
    String arm = boot.substring(0, 1);
    int pair = boot.charAt(1) - '0';
    return "{\"arm\":\"" + arm + "\",\"host\":\"h\",\"pair\":" + pair + ",\"boot\":\"" + boot
        + "\",\"metric\":\"" + metric + "\",\"value\":" + value + ",\"unit\":\"" + unit + "\"" + extra + "}";
  }

  @Test
  void bootLineRepeatedWithAnotherValueIsRejected() throws IOException {
    assertThat(errors(line("a0", "stat", 1000, "ops/s", ""), line("b0", "stat", 900, "ops/s", ""),
        line("a0", "stat", 1200, "ops/s", "")))
        .containsExactly("in.jsonl:3: boot a0, metric stat: a second value (1200.0 here, 1000.0 at"
            + " in.jsonl:1); several values of a boot are its iterations and need distinct"
            + " \"iteration\" numbers (0, 1, ...), else remove the duplicate line");
  }

  @Test
  void unnumberedLineBesideNumberedIterationsIsRejected() throws IOException {
    assertThat(errors(line("a0", "stat", 1000, "ops/s", ",\"iteration\":0"),
        line("a0", "stat", 1010, "ops/s", "")))
        .singleElement().asString().startsWith("in.jsonl:2: boot a0, metric stat: a second value");
  }

  @Test
  void sameIterationTwiceWithDifferentValuesIsRejected() throws IOException {
    assertThat(errors(line("a0", "stat", 1000, "ops/s", ",\"iteration\":0"),
        line("a0", "stat", 1010, "ops/s", ",\"iteration\":1"),
        line("a0", "stat", 1300, "ops/s", ",\"iteration\":1")))
        .containsExactly("in.jsonl:3: boot a0, metric stat, iteration 1: 1300.0 here but 1010.0 at"
            + " in.jsonl:2; an iteration has one value: remove the wrong line");
  }

  @Test
  void repeatedIterationLineIsRejectedAsADuplicate() throws IOException {
    String l = line("a0", "stat", 1000, "ops/s", ",\"iteration\":0");
    assertThat(errors(l, l)).containsExactly(
        "in.jsonl:2: repeats in.jsonl:1 (boot a0, metric stat, iteration 0); remove the duplicate line");
  }

  @Test
  void numberedIterationsOfOneBootAreAccepted() throws IOException {
    List<String> lines = new ArrayList<>();
    for (String boot : List.of("a0", "b0")) {
      for (int i = 0; i < 3; i++) {
        lines.add(line(boot, "stat", 1000, "ops/s", ",\"iteration\":" + i));
      }
    }
    assertThat(errors(lines.toArray(String[]::new))).isEmpty();
  }

  @Test
  void unnumberedWarmupLinesBesideTheMeasuredValueAreAccepted() throws IOException {
    assertThat(errors(line("a0", "stat", 700, "ops/s", ",\"warmup\":true"),
        line("a0", "stat", 750, "ops/s", ",\"warmup\":true"), line("a0", "stat", 1000, "ops/s", "")))
        .isEmpty();
  }

  @Test
  void mixedUnitsForOneMetricAreRejectedNamingBothUnitsAndLines() throws IOException {
    assertThat(errors(line("a0", "read", 500, "ms", ""), line("b0", "read", 0.49, "s", "")))
        .containsExactly("in.jsonl:2: metric read is in 's' here but in 'ms' at in.jsonl:1; a metric"
            + " has one unit per experiment: convert the values or give one of them another metric name");
  }

  @Test
  void oneMetricNameMayHaveAnotherUnitInAnotherExperiment() throws IOException {
    assertThat(errors(line("a0", "read", 500, "ms", ",\"experiment\":\"e1\""),
        line("a0", "read", 0.5, "s", ",\"experiment\":\"e2\""))).isEmpty();
  }

  @Test
  void bootOnTwoPairsIsRejected() throws IOException {
    assertThat(errors(line("a0", "stat", 1000, "ops/s", ""),
        line("a0", "read", 500, "ms", "").replace("\"pair\":0", "\"pair\":1")))
        .containsExactly("in.jsonl:2: boot a0 is on host h, pair 1 here but on host h, pair 0 at"
            + " in.jsonl:1; a boot runs once, on one host: fix its host and pair or give it another"
            + " boot id");
  }

  @Test
  void repeatInASecondFileNamesBothFiles() throws IOException {
    String l = line("a0", "stat", 1000, "ops/s", ",\"iteration\":0");
    List<Sample> samples = new ArrayList<>();
    samples.addAll(JsonlReader.read("one.jsonl", TextLines.of(l), 0).samples());
    samples.addAll(JsonlReader.read("two.jsonl", TextLines.of(l), 1L << 40).samples());
    assertThat(SampleChecks.check(samples)).extracting(ParseError::toString).containsExactly(
        "two.jsonl:1: repeats one.jsonl:1 (boot a0, metric stat, iteration 0); remove the duplicate line");
  }
}
