package dev.abfleet.cli.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.HostileRun;
import dev.abfleet.testkit.HostileInputs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile input to {@code abfleet analyze}: each ends with exit code 2, nothing on stdout, and
 * one line naming the file, the line, the problem and the fix.
 */
public class HostileAnalyzeInputTest {
  @TempDir Path dir;

  /**
   * @param input writes the input file into a directory
   * @param format the --input-format
   */
  public record Case(String name, HostileRun.Input input, String format, String problem, String fix) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Good JSON Lines with line 3 replaced by {@code bad}. */
  private static HostileRun.Input jsonlWith(String bad) {
    return d -> {
      List<String> lines = new ArrayList<>(AnalyzeCommandTest.pairs("e1", 4, 1.0));
      lines.set(2, bad);
      return Files.write(d.resolve("s.jsonl"), lines);
    };
  }

  /** Good JSON Lines with the value of line 3 replaced by {@code value}. */
  private static HostileRun.Input valueOnLine3(String value) {
    return d -> {
      List<String> lines = new ArrayList<>(AnalyzeCommandTest.pairs("e1", 4, 1.0));
      lines.set(2, lines.get(2).replaceAll("\"value\":[0-9.]+", "\"value\":" + value));
      return Files.write(d.resolve("s.jsonl"), lines);
    };
  }

  private static HostileRun.Input file(String name, String text) {
    return d -> Files.writeString(d.resolve(name), text, StandardCharsets.UTF_8);
  }

  private static final String LINE = "{\"arm\":\"base\",\"boot\":\"b1\",\"metric\":\"stat\",\"value\":1.5,"
      + "\"unit\":\"ms\",\"better\":\"lower\"}";
  private static final String JSONL_FIX = "one JSON object per line";

  public static List<Case> cases() {
    return List.of(
        new Case("truncated JSON line", jsonlWith(LINE.substring(0, 40)), "jsonl", "s.jsonl:3: not a JSON object",
            JSONL_FIX),
        new Case("file cut mid-line at the end", d -> Files.writeString(d.resolve("s.jsonl"),
            String.join("\n", AnalyzeCommandTest.pairs("e1", 4, 1.0)) + "\n" + LINE.substring(0, 30)), "jsonl",
            "s.jsonl:17: not a JSON object", "is the file cut short?"),
        new Case("NaN value", valueOnLine3("NaN"), "jsonl", ":3: metric stat: value is NaN",
            "values must be finite numbers"),
        new Case("Infinity value", valueOnLine3("Infinity"), "jsonl", ":3: metric stat: value is Infinity",
            "values must be finite numbers"),
        new Case("-Infinity value", valueOnLine3("-Infinity"), "jsonl", ":3: metric stat: value is -Infinity",
            "values must be finite numbers"),
        new Case("value past a double", valueOnLine3("1e999"), "jsonl", ":3: metric stat: value is Infinity",
            "values must be finite numbers"),
        new Case("value as a string", valueOnLine3("\"fast\""), "jsonl", "'value' must be a number, got \"fast\"",
            "must be a number"),
        new Case("pair past an int", jsonlWith(LINE.replace("{", "{\"pair\":1e20,")), "jsonl",
            "pair 1.0E20 is not a whole number", "whole number >= 0"),
        new Case("negative pair", jsonlWith(LINE.replace("{", "{\"pair\":-1,")), "jsonl",
            "pair -1.0 is not a whole number", "whole number >= 0"),
        new Case("duplicate key", jsonlWith(LINE.replace("{", "{\"arm\":\"cand\",")), "jsonl",
            "s.jsonl:3: duplicate field 'arm'", "give each field once"),
        new Case("missing arm", jsonlWith(LINE.replace("\"arm\":\"base\",", "")), "jsonl",
            ":3: missing field 'arm'", "every sample line needs arm, boot, metric and value"),
        new Case("unknown better", jsonlWith(LINE.replace("lower", "sideways")), "jsonl", "better 'sideways'",
            "expected higher or lower"),
        new Case("empty host_class", jsonlWith(LINE.replace("{", "{\"host_class\":\" \",")), "jsonl",
            "host_class must be a non-empty string", "leave it out"),
        new Case("a JSON array per line", jsonlWith("[1, 2, 3]"), "jsonl", ":3: expected one JSON object per line",
            "{\"arm\""),
        new Case("Go benchmark text read as JSON Lines", file("s.jsonl", "BenchmarkStat-8 100 1234 ns/op\n"),
            "jsonl", "s.jsonl:1: not a JSON object", "pass --input-format gobench"),
        new Case("JSON Lines read as Go benchmark text", jsonlWith(LINE), "gobench", "no samples found",
            "check --input-format"),
        new Case("empty input", file("s.jsonl", ""), "jsonl", "no samples found", "one sample per line"),
        new Case("only blank lines", file("s.jsonl", "\n\n\n"), "jsonl", "no samples found", "one sample per line"),
        new Case("binary garbage", d -> Files.write(d.resolve("s.jsonl"), HostileInputs.garbage(64 << 10)), "jsonl",
            "s.jsonl:1: ", "more bad lines"),
        new Case("a 10 MB single line", d -> Files.writeString(d.resolve("s.jsonl"), "{\"arm\":\"" + "a".repeat(10 << 20)
            + "\"}"), "jsonl", "s.jsonl:1: longer than 1 MiB without a line break", "analyze reads one sample per line"),
        new Case("invalid UTF-8", d -> Files.write(d.resolve("s.jsonl"),
            (LINE.replace("base", "b\u00e9se") + "\n").getBytes(StandardCharsets.ISO_8859_1)), "jsonl",
            "s.jsonl:1: not UTF-8 text", "save the file as UTF-8"),
        new Case("gobench NaN", file("g.txt", "BenchmarkStat-8 100 NaN ns/op\n"), "gobench", "g.txt:1: value is NaN",
            "values must be finite"),
        new Case("gobench iteration count not a number", file("g.txt", "BenchmarkStat-8 many 12 ns/op\n"), "gobench",
            "iteration count 'many' is not a whole number", "BenchmarkName N value unit"),
        new Case("gobench value without a unit", file("g.txt", "BenchmarkStat-8 100 12\n"), "gobench",
            "g.txt:1: 3 fields", "expected 'BenchmarkName N value unit"),
        new Case("no such file", d -> d.resolve("nope.jsonl"), "jsonl", "nope.jsonl: no such file",
            "pass an existing file"),
        new Case("a directory", d -> Files.createDirectory(d.resolve("samples.d")), "jsonl", "is a directory",
            "pass the sample files themselves"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badAnalyzeInputIsOneLineAndExitTwo(Case c) throws IOException {
    Path input = c.input().write(dir);

    AnalyzeCommandTest.Run r = AnalyzeCommandTest.run("analyze", "--input-format", c.format(), input.toString());

    assertThat(r.out()).isEmpty();
    String line = HostileRun.assertOneClearLine(new HostileRun.Outcome(r.code(), r.err()), c.problem(), c.fix());
    assertThat(HostileInputs.leaksInternals(line)).isFalse();
  }
}
