package dev.abfleet.cli.analyze.samples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.Fuzz;
import dev.abfleet.testkit.Gen;
import dev.abfleet.testkit.HostileInputs;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Seeded property-based fuzzing of analyze's readers: any bytes give samples and parse errors,
 * never an exception; each error is one line naming its line number; bounded time.
 */
class AnalyzeReadersFuzzTest {
  private static final long MAX_NANOS = 2_000_000_000L;

  private static Gen<byte[]> jsonlish() {
    Gen<String> token = Gen.oneOf(
        Gen.of("{", "}", "[", "]", ":", ",", "\"", "\n", "\r\n", " ", "\\", "\\u0000"),
        Gen.of("\"arm\"", "\"boot\"", "\"metric\"", "\"value\"", "\"pair\"", "\"iteration\"", "\"better\"",
            "\"host_class\"", "\"status\"", "\"experiment\"", "\"base\"", "\"cand\"", "\"higher\"", "\"ok\""),
        Gen.of("1.5", "-0", "NaN", "Infinity", "-Infinity", "1e999", "-1", "1e20", "true", "null",
            "99999999999999999999", "0.0000001"));
    Gen<byte[]> text = Gen.tokens(token, 80).map(t -> t.getBytes(StandardCharsets.UTF_8));
    return Gen.oneOf(text, Gen.bytes(2000));
  }

  private static Gen<byte[]> gobenchish() {
    Gen<String> token = Gen.of("Benchmark", "BenchmarkX-8", "Read", " ", "\t", "\n", "100", "-5",
        "1.5", "NaN", "+Inf", "1e999", "ns/op", "MB/s", "B/op", "allocs/op", "PASS", "ok", "goos:", "\u00e9", "\u0000");
    return Gen.tokens(token, 60).map(t -> t.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void jsonLinesGiveSamplesAndOneLineErrors() {
    Fuzz.check("jsonLinesGiveSamplesAndOneLineErrors", 20261211, 1000, jsonlish(), input -> {
      long start = System.nanoTime();
      Parsed p = JsonlReader.read("in.jsonl", new TextLines(new ByteArrayInputStream(input)), 0);
      errorsAreOneLine(p);
      SampleChecks.check(p.samples()).forEach(e -> oneLine(e.toString()));
      assertThat(System.nanoTime() - start).as("bounded time").isLessThan(MAX_NANOS);
    });
  }

  @Test
  void goBenchmarkTextGivesSamplesAndOneLineErrors() {
    Fuzz.check("goBenchmarkTextGivesSamplesAndOneLineErrors", 20261212, 1000, gobenchish(), input -> {
      long start = System.nanoTime();
      Parsed p = GoBenchReader.read("old.txt", "old", new TextLines(new ByteArrayInputStream(input)), 0);
      errorsAreOneLine(p);
      p.samples().forEach(s -> assertThat(s.value()).isFinite());
      assertThat(System.nanoTime() - start).as("bounded time").isLessThan(MAX_NANOS);
    });
  }

  private static void errorsAreOneLine(Parsed p) {
    assertThat(p.errors().size()).isLessThanOrEqualTo(JsonlReader.MAX_BAD_LINES);
    p.errors().forEach(e -> oneLine(e.toString()));
  }

  private static void oneLine(String message) {
    assertThat(message.lines().count()).as(message).isEqualTo(1);
    assertThat(HostileInputs.leaksInternals(message)).as(message).isFalse();
  }
}
