package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GoBenchLineTest {

  @Test
  void readsTheNameWithItsProcsSuffixTheCountAndOneMeasurementPerUnit() {
    GoBenchLine.Line l = GoBenchLine.parse("BenchmarkRead-8  \t 500\t 2400 ns/op\t 410.5 MB/s\t 0 allocs/op");

    assertThat(l.benchmark()).isTrue();
    assertThat(l.error()).isNull();
    assertThat(l.name()).isEqualTo("Read-8");
    assertThat(l.iterations()).isEqualTo(500);
    assertThat(l.measurements()).containsExactly(
        new GoBenchLine.Measurement(2400, "ns/op", Better.LOWER),
        new GoBenchLine.Measurement(410.5, "MB/s", Better.HIGHER),
        new GoBenchLine.Measurement(0, "allocs/op", Better.LOWER));
  }

  @Test
  void linesThatDoNotStartWithBenchmarkAreNotResults() {
    for (String line : new String[] {"goos: linux", "PASS", "ok  \tpkg\t1.2s", "  BenchmarkX 1 2 ns/op", ""}) {
      GoBenchLine.Line l = GoBenchLine.parse(line);
      assertThat(l.benchmark()).as(line).isFalse();
      assertThat(l.error()).as(line).isNull();
    }
    assertThat(GoBenchLine.parse(null).benchmark()).isFalse();
  }

  @Test
  void aLineWithoutValueUnitPairsIsAnError() {
    assertThat(GoBenchLine.parse("BenchmarkRead-8  500").error())
        .isEqualTo("2 fields; expected 'BenchmarkName N value unit [value unit ...]'");
    assertThat(GoBenchLine.parse("BenchmarkRead-8  500 12 ns/op 7").error())
        .isEqualTo("5 fields; expected 'BenchmarkName N value unit [value unit ...]'");
  }

  @Test
  void aBadCountOrNameIsAnError() {
    assertThat(GoBenchLine.parse("Benchmark 500 1 ns/op").error()).isEqualTo("benchmark without a name");
    assertThat(GoBenchLine.parse("BenchmarkX 5x 1 ns/op").error())
        .isEqualTo("iteration count '5x' is not a whole number; expected 'BenchmarkName N value unit [value unit ...]'");
  }

  @Test
  void keepsTheMeasurementsBeforeABadValue() {
    GoBenchLine.Line l = GoBenchLine.parse("BenchmarkX-2 10 12 ns/op NaN MB/s");

    assertThat(l.measurements()).extracting(GoBenchLine.Measurement::unit).containsExactly("ns/op");
    assertThat(l.error()).startsWith("value is NaN; values must be finite numbers");
    assertThat(GoBenchLine.parse("BenchmarkX-2 10 fast ns/op").error()).isEqualTo("value 'fast' is not a number; expected 'BenchmarkName N value unit [value unit ...]'");
  }
}
