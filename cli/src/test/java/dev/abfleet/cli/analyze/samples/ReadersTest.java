package dev.abfleet.cli.analyze.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ReadersTest {
  private static Parsed jsonl(String text) throws IOException {
    return JsonlReader.read("in.jsonl", TextLines.of(text), 0);
  }

  @Test
  void failedBootLineNeedsNoMetric() throws IOException {
    Parsed p = jsonl("{\"arm\":\"a\",\"host\":\"h\",\"pair\":0,\"boot\":\"b1\","
        + "\"status\":\"boot_failed\"}\n");
    assertThat(p.errors()).isEmpty();
    assertThat(p.samples().get(0).failed()).isTrue();
  }

  @Test
  void badLinesAreCollectedWithTheirLineNumbersAndReadingGoesOn() throws IOException {
    Parsed p = jsonl("{\"arm\":\"a\",\"boot\":\"b\",\"metric\":\"m\",\"value\":1}\n"
        + "not json\n\n{\"boot\":\"b\",\"metric\":\"m\",\"value\":1}\n"
        + "{\"arm\":\"a\",\"boot\":\"b\",\"metric\":\"m\",\"value\":2,\"better\":\"up\"}\n");
    assertThat(p.samples()).hasSize(1);
    assertThat(p.errors()).extracting(ParseError::toString).containsExactly(
        "in.jsonl:2: not a JSON object: Unrecognized token 'not': was expecting (JSON String,"
            + " Number, Array, Object or token 'null', 'true' or 'false'); write one JSON object per line, e.g. "
            + JsonlReader.EXAMPLE,
        "in.jsonl:4: missing field 'arm'; every sample line needs arm, boot, metric and value",
        "in.jsonl:5: better 'up': expected higher or lower");
  }

  @Test
  void rejectsAnUnknownStatusNamingTheLineAndTheAcceptedValues() throws IOException {
    Parsed p = jsonl("{\"arm\":\"a\",\"boot\":\"b1\",\"status\":\"exploded\"}\n");

    assertThat(p.samples()).isEmpty();
    assertThat(p.errors()).extracting(ParseError::toString).containsExactly(
        "in.jsonl:1: status 'exploded' is not a boot status; expected one of ok, boot_failed, timeout,"
            + " harness_failed, infra, config (leave status out for a measured boot)");
  }

  @Test
  void rejectsAWarmupThatIsNotABoolean() throws IOException {
    String head = "{\"arm\":\"a\",\"boot\":\"b1\",\"metric\":\"m\",\"value\":1,\"warmup\":";
    Parsed p = jsonl(head + "\"yes\"}\n" + head + "\"false\"}\n" + head + "1}\n" + head + "true}\n"
        + head + "false}\n");

    assertThat(p.errors()).extracting(ParseError::toString).containsExactly(
        "in.jsonl:1: warmup \"yes\" is not a boolean; write true or false (JSON booleans, unquoted), or leave"
            + " warmup out for a measured value",
        "in.jsonl:2: warmup \"false\" is not a boolean; write true or false (JSON booleans, unquoted), or leave"
            + " warmup out for a measured value",
        "in.jsonl:3: warmup 1 is not a boolean; write true or false (JSON booleans, unquoted), or leave"
            + " warmup out for a measured value");
    assertThat(p.samples()).extracting(Sample::warmup).containsExactly(true, false);
  }

  @Test
  void experimentDefaultsToOne() throws IOException {
    Parsed p = jsonl("{\"arm\":\"a\",\"boot\":\"b\",\"metric\":\"m\",\"value\":1}\n");
    assertThat(p.samples().get(0).experiment()).isEqualTo(JsonlReader.DEFAULT_EXPERIMENT);
  }

  @Test
  void goBenchmarkLineGivesOneSamplePerUnitWithDirection() throws IOException {
    Parsed p = GoBenchReader.read("old.txt", "old", TextLines.of(
        "BenchmarkRead-8  500  2400 ns/op  410.5 MB/s  0 allocs/op\nPASS\n"), 0);
    assertThat(p.samples()).extracting(Sample::metric).containsOnly("Read-8");
    assertThat(p.samples()).extracting(Sample::unit)
        .containsExactly("ns/op", "MB/s", "allocs/op");
    assertThat(p.samples()).extracting(Sample::better)
        .containsExactly("lower", "higher", "lower");
  }

  @Test
  void goBenchmarkLineWithoutUnitsIsAnError() throws IOException {
    Parsed p = GoBenchReader.read("old.txt", "old", TextLines.of("BenchmarkRead-8  500\n"), 0);
    assertThat(p.errors()).extracting(ParseError::toString)
        .containsExactly("old.txt:1: 2 fields; expected 'BenchmarkName N value unit [value unit ...]'");
  }

  @Test
  void nanValueIsRejectedSayingValuesMustBeFinite() throws IOException {
    Parsed p = jsonl("{\"arm\":\"a\",\"boot\":\"b\",\"metric\":\"m\",\"value\":1}\n\n"
        + "{\"arm\":\"a\",\"boot\":\"c\",\"metric\":\"m\",\"value\":NaN}\n");
    assertThat(p.errors()).extracting(ParseError::toString).containsExactly(
        "in.jsonl:3: metric m: value is NaN; values must be finite numbers (leave out a value that"
            + " was not measured)");
  }

  @Test
  void infiniteValueIsRejectedSayingValuesMustBeFinite() throws IOException {
    Parsed p = jsonl("{\"arm\":\"a\",\"boot\":\"b\",\"metric\":\"m\",\"value\":-Infinity}\n");
    assertThat(p.errors()).extracting(ParseError::message).singleElement().asString()
        .startsWith("metric m: value is -Infinity; values must be finite numbers");
  }

  @Test
  void iterationMustBeAWholeNumber() throws IOException {
    Parsed p = jsonl("{\"arm\":\"a\",\"boot\":\"b\",\"metric\":\"m\",\"value\":1,\"iteration\":1.5}\n");
    assertThat(p.errors()).extracting(ParseError::toString)
        .containsExactly("in.jsonl:1: iteration 1.5 is not a whole number >= 0");
  }

  @Test
  void lineThatIsNotUtf8IsNamedAndTheNextLineIsRead() throws IOException {
    byte[] latin1 = ("{\"arm\":\"a\",\"boot\":\"b1\",\"metric\":\"m\",\"value\":1}\n"
        + "{\"arm\":\"caf\u00e9\",\"boot\":\"b2\",\"metric\":\"m\",\"value\":1}\n"
        + "{\"arm\":\"a\",\"boot\":\"b3\",\"metric\":\"m\",\"value\":1}\n")
        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    Parsed p = JsonlReader.read("in.jsonl", new TextLines(new java.io.ByteArrayInputStream(latin1)), 0);
    assertThat(p.errors()).extracting(ParseError::toString).containsExactly(
        "in.jsonl:2: not UTF-8 text; save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)");
    assertThat(p.samples()).extracting(Sample::boot).containsExactly("b1", "b3");
  }

  @Test
  void lineLongerThanTheCapEndsTheFile() throws IOException {
    java.io.InputStream zeros = new java.io.InputStream() {
      @Override
      public int read() {
        return 0;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        java.util.Arrays.fill(b, off, off + len, (byte) 0);
        return len;
      }
    };
    Parsed p = JsonlReader.read("/dev/zero", new TextLines(zeros), 0);
    assertThat(p.errors()).extracting(ParseError::toString).containsExactly(
        "/dev/zero:1: longer than 1 MiB without a line break; analyze reads one sample per line (is"
            + " this the right file?)");
  }

  @Test
  void goBenchmarkNanValueIsRejectedSayingValuesMustBeFinite() throws IOException {
    Parsed p = GoBenchReader.read("old.txt", "old", TextLines.of("BenchmarkRead-8  500  NaN ns/op\n"), 0);
    assertThat(p.errors()).extracting(ParseError::toString).containsExactly(
        "old.txt:1: value is NaN; values must be finite numbers (leave out a result that was not"
            + " measured)");
  }
}
