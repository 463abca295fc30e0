package dev.abfleet.cli.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.HostileInputs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Seeded property-based fuzzing of analyze's readers: any bytes give samples and parse errors,
 * never an exception; each error is one line naming its line number; bounded time.
 */
class AnalyzeReadersFuzzTest {
  private static final long MAX_NANOS = 2_000_000_000L;

  @Provide
  Arbitrary<byte[]> jsonlish() {
    Arbitrary<String> token = Arbitraries.oneOf(
        Arbitraries.of("{", "}", "[", "]", ":", ",", "\"", "\n", "\r\n", " ", "\\", "\\u0000"),
        Arbitraries.of("\"arm\"", "\"boot\"", "\"metric\"", "\"value\"", "\"pair\"", "\"iteration\"", "\"better\"",
            "\"host_class\"", "\"status\"", "\"experiment\"", "\"base\"", "\"cand\"", "\"higher\"", "\"ok\""),
        Arbitraries.of("1.5", "-0", "NaN", "Infinity", "-Infinity", "1e999", "-1", "1e20", "true", "null",
            "99999999999999999999", "0.0000001"));
    Arbitrary<byte[]> text = token.list().ofMaxSize(80).map(t -> String.join("", t).getBytes(
        java.nio.charset.StandardCharsets.UTF_8));
    Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMaxSize(2000);
    return Arbitraries.oneOf(text, raw);
  }

  @Provide
  Arbitrary<byte[]> gobenchish() {
    Arbitrary<String> token = Arbitraries.of("Benchmark", "BenchmarkX-8", "Read", " ", "\t", "\n", "100", "-5",
        "1.5", "NaN", "+Inf", "1e999", "ns/op", "MB/s", "B/op", "allocs/op", "PASS", "ok", "goos:", "\u00e9", "\u0000");
    return token.list().ofMaxSize(60).map(t -> String.join("", t).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Property(tries = 1000, seed = "20261211")
  void jsonLinesGiveSamplesAndOneLineErrors(@ForAll("jsonlish") byte[] input) throws IOException {
    long start = System.nanoTime();
    Parsed p = JsonlReader.read("in.jsonl", new TextLines(new ByteArrayInputStream(input)), 0);
    errorsAreOneLine(p);
    SampleChecks.check(p.samples()).forEach(e -> oneLine(e.toString()));
    assertThat(System.nanoTime() - start).as("bounded time").isLessThan(MAX_NANOS);
  }

  @Property(tries = 1000, seed = "20261212")
  void goBenchmarkTextGivesSamplesAndOneLineErrors(@ForAll("gobenchish") byte[] input) throws IOException {
    long start = System.nanoTime();
    Parsed p = GoBenchReader.read("old.txt", "old", new TextLines(new ByteArrayInputStream(input)), 0);
    errorsAreOneLine(p);
    p.samples().forEach(s -> assertThat(s.value()).isFinite());
    assertThat(System.nanoTime() - start).as("bounded time").isLessThan(MAX_NANOS);
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
