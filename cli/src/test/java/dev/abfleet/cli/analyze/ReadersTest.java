package dev.abfleet.cli.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class ReadersTest {
  private static Parsed jsonl(String text) throws IOException {
    return JsonlReader.read("in.jsonl", new BufferedReader(new StringReader(text)), 0);
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
            + " Number, Array, Object or token 'null', 'true' or 'false')",
        "in.jsonl:4: missing field 'arm'",
        "in.jsonl:5: better 'up': expected higher or lower");
  }

  @Test
  void experimentDefaultsToOne() throws IOException {
    Parsed p = jsonl("{\"arm\":\"a\",\"boot\":\"b\",\"metric\":\"m\",\"value\":1}\n");
    assertThat(p.samples().get(0).experiment()).isEqualTo(JsonlReader.DEFAULT_EXPERIMENT);
  }

  @Test
  void goBenchmarkLineGivesOneSamplePerUnitWithDirection() throws IOException {
    Parsed p = GoBenchReader.read("old.txt", "old", new BufferedReader(new StringReader(
        "BenchmarkRead-8  500  2400 ns/op  410.5 MB/s  0 allocs/op\nPASS\n")), 0);
    assertThat(p.samples()).extracting(Sample::metric).containsOnly("Read-8");
    assertThat(p.samples()).extracting(Sample::unit)
        .containsExactly("ns/op", "MB/s", "allocs/op");
    assertThat(p.samples()).extracting(Sample::better)
        .containsExactly("lower", "higher", "lower");
  }

  @Test
  void goBenchmarkLineWithoutUnitsIsAnError() throws IOException {
    Parsed p = GoBenchReader.read("old.txt", "old",
        new BufferedReader(new StringReader("BenchmarkRead-8  500\n")), 0);
    assertThat(p.errors()).extracting(ParseError::toString)
        .containsExactly("old.txt:1: expected 'BenchmarkName N value unit [value unit ...]'");
  }
}
