package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.HostileInputs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a hostile or broken guest writes on its results channel, and what a workload prints: the
 * parsers return a value for any input, never a sample from a bad line, and a parse error whose
 * one-line message names the problem and the fix.
 */
class HostileGuestOutputTest {
  private static final String START = "{\"event\":\"start\",\"harness\":\"fleetbench\",\"version\":\"1\"}";
  private static final String GOOD = "{\"metric\":\"metadata_stat\",\"value\":1.5,\"unit\":\"ops/s\","
      + "\"better\":\"higher\",\"iteration\":0}";

  /**
   * @param input the results channel's bytes
   * @param goodSamples samples the valid lines around the bad one give
   */
  record Case(String name, byte[] input, int goodSamples, String problem, String fix) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case sampleCase(String name, Function<String, String> change, String problem, String fix) {
    String text = START + "\n" + GOOD + "\n" + change.apply(GOOD) + "\n" + GOOD.replace("\"iteration\":0",
        "\"iteration\":1") + "\n";
    return new Case(name, text.getBytes(StandardCharsets.UTF_8), 2, problem, fix);
  }

  private static Case lineCase(String name, String line, String problem, String fix) {
    return sampleCase(name, good -> line, problem, fix);
  }

  static List<Case> cases() {
    String finite = "report finite numbers";
    String needs = "a sample needs metric, value, unit, better and iteration";
    String oneObject = "write one protocol object per line";
    return List.of(
        new Case("binary garbage", HostileInputs.garbage(64 << 10), 0, "not a JSON object", oneObject),
        sampleCase("NaN value", g -> g.replace("1.5", "NaN"), "metadata_stat: non-finite value NaN", finite),
        sampleCase("Infinity value", g -> g.replace("1.5", "Infinity"), "non-finite value Infinity", finite),
        sampleCase("-Infinity value", g -> g.replace("1.5", "-Infinity"), "non-finite value -Infinity", finite),
        sampleCase("value past a double", g -> g.replace("1.5", "1e999"), "non-finite value", finite),
        sampleCase("value as a string", g -> g.replace("1.5", "\"fast\""), "\"value\" must be a number, got \"fast\"",
            "must be a number"),
        sampleCase("huge iteration", g -> g.replace("\"iteration\":0", "\"iteration\":1e20"),
            "\"iteration\" must be a non-negative integer", "non-negative integer"),
        sampleCase("negative iteration", g -> g.replace("\"iteration\":0", "\"iteration\":-1"),
            "\"iteration\" must be a non-negative integer, got -1", "non-negative integer"),
        sampleCase("missing unit", g -> g.replace("\"unit\":\"ops/s\",", ""), "missing field \"unit\"", needs),
        sampleCase("missing iteration", g -> g.replace(",\"iteration\":0", ""), "missing field \"iteration\"", needs),
        sampleCase("unknown better", g -> g.replace("higher", "sideways"), "unknown better 'sideways'",
            "expected higher or lower"),
        sampleCase("metric name with a terminal escape", g -> g.replace("metadata_stat", "\\u001b[2J"),
            "\"metric\" ?[2J is not a metric name", "printable characters"),
        sampleCase("metric name of 10,000 characters", g -> g.replace("metadata_stat", "m".repeat(10_000)),
            "is not a metric name", "use at most 128 printable characters"),
        sampleCase("empty metric name", g -> g.replace("metadata_stat", ""), "\"metric\" must be a non-empty string",
            "non-empty string"),
        sampleCase("line cut mid-way", g -> g.substring(0, 40), "not a JSON object", oneObject),
        sampleCase("a 10 MB JSON line", g -> g.replace("metadata_stat", "m".repeat(10 << 20)),
            "line too long: 1048", oneObject),
        lineCase("neither event nor metric", "{\"colour\":\"red\"}", "neither \"event\" nor \"metric\"",
            "a protocol line is an event or a sample"),
        lineCase("unknown event", "{\"event\":\"reboot\"}", "unknown event 'reboot'", "expected start, done"),
        lineCase("second start event", START, "second start event", "the first one is kept"),
        lineCase("negative run time", "{\"event\":\"done\",\"elapsed_ms\":-5}", "\"elapsed_ms\" must be a whole number",
            "of milliseconds >= 0, got -5"),
        lineCase("workload event without a line", "{\"event\":\"workload\",\"line\":42}",
            "workload event without a \"line\" string", "\"line\" string"),
        lineCase("workload end with a text status", "{\"event\":\"workload_end\",\"exit_status\":\"0\"}",
            "workload_end without an integer \"exit_status\"", "integer \"exit_status\""),
        lineCase("telemetry with negative work", "{\"event\":\"telemetry\",\"metric\":\"m\",\"work\":-1}",
            "telemetry of m: work must be a number >= 0", ">= 0"),
        lineCase("JSON array", "[1,2,3]", "not a JSON object", oneObject));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badResultsGiveAParseErrorAndNoSampleFromTheBadLine(Case c) {
    ParsedRun run = GuestProtocol.parse(c.input());

    assertThat(run.samples()).hasSize(c.goodSamples());
    assertThat(run.parseErrors()).isNotEmpty().hasSizeLessThanOrEqualTo(GuestProtocol.MAX_PARSE_ERRORS);
    String message = run.parseErrors().get(0).message();
    assertThat(message).contains(c.problem()).contains(c.fix());
    assertThat(message.lines().count()).as(message).isEqualTo(1);
    assertThat(message.length()).as("quoted, not copied").isLessThan(400);
    assertThat(HostileInputs.leaksInternals(message)).as(message).isFalse();
  }

  @Test
  void aThousandGarbageLinesKeepTwentyErrorsAndCountTheRest() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      lines.add("garbage " + i);
    }
    ParsedRun run = GuestProtocol.parse(lines);

    assertThat(run.parseErrors()).hasSize(GuestProtocol.MAX_PARSE_ERRORS);
    assertThat(run.parseErrorsOmitted()).isEqualTo(1000 - GuestProtocol.MAX_PARSE_ERRORS);
  }

  @Test
  void unknownFieldsOfASampleAreIgnored() {
    ParsedRun run = GuestProtocol.parse(GOOD.replace("{", "{\"colour\":\"red\",") + "\n");

    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.samples()).singleElement().extracting(GuestSample::metric).isEqualTo("metadata_stat");
  }
}
