package dev.abfleet.cli.analyze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.abfleet.cli.analyze.GoBenchSummaries.Geomean;
import dev.abfleet.cli.analyze.GoBenchSummaries.Summary;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reference values from python3 with numpy and scipy: the median, scipy.stats.binom for the
 * order statistics of the 95% interval (k the largest with 2 P(B <= k - 1) <= 0.05), and
 * scipy.stats.gmean.
 */
class GoBenchSummariesTest {
  /** old.txt's BenchmarkDecode-8 ns/op (src/test/resources/analyze/gobench). */
  private static final double[] DECODE_OLD = {2170.9, 2210.7, 2169.1, 2204.1, 2172.0, 2173.8};

  @Test
  void spreadOfSixValuesIsTheLargerDistanceFromTheMedianToTheMinOrMax() {
    Summary s = GoBenchSummaries.of(DECODE_OLD);
    assertThat(s.centre()).isCloseTo(2172.9, within(1e-9));
    assertThat(s.low()).isEqualTo(2169.1);
    assertThat(s.high()).isEqualTo(2210.7);
    assertThat(s.spread()).isCloseTo(0.017396, within(1e-6));
    assertThat(s.n()).isEqualTo(6);
  }

  @Test
  void spreadOfTwentyValuesUsesTheOrderStatisticsOfTheIntervalNotTheExtremes() {
    double[] v = {100.0, 108.5, 107.0, 105.5, 104.0, 102.5, 101.0, 112.5, 108.0, 106.5, 105.0,
        103.5, 102.0, 100.5, 109.0, 107.5, 106.0, 104.5, 103.0, 101.5};
    Summary s = GoBenchSummaries.of(v);
    assertThat(s.centre()).isEqualTo(104.75);
    assertThat(s.low()).isEqualTo(102.5); // 6th smallest
    assertThat(s.high()).isEqualTo(107.0); // 6th largest
    assertThat(s.spread()).isCloseTo(0.0214797, within(1e-6)); // min/max would say 0.0740
  }

  @Test
  void fewerThanSixValuesHaveNoSpread() {
    Summary s = GoBenchSummaries.of(Arrays.copyOf(DECODE_OLD, 5));
    assertThat(s.centre()).isEqualTo(2172.0);
    assertThat(s.spread()).isNaN();
    assertThat(GoBenchTable.summary(s)).isEqualTo("2.172k ± ∞");
  }

  @Test
  void equalValuesHaveNoSpreadEvenAtZero() {
    assertThat(GoBenchSummaries.of(new double[] {0, 0, 0, 0, 0, 0}).spread()).isZero();
    assertThat(GoBenchTable.summary(GoBenchSummaries.of(new double[] {192, 192, 192, 192, 192, 192})))
        .isEqualTo("192.0 ± 0.0%");
  }

  @Test
  void geomeanIsOverTheBenchmarksMeasuredInBothArms() {
    Summary a = GoBenchSummaries.of(new double[] {3});
    Summary b = GoBenchSummaries.of(new double[] {12});
    Summary c = GoBenchSummaries.of(new double[] {6});
    Geomean g = GoBenchSummaries.geomean(List.of("A", "B", "OnlyOld"),
        Arrays.asList(a, b, c), Arrays.asList(c, c, null));
    assertThat(g.benchmarks()).isEqualTo(2);
    assertThat(g.baseline()).isCloseTo(6.0, within(1e-12)); // gmean(3, 12)
    assertThat(g.candidate()).isCloseTo(6.0, within(1e-12));
    assertThat(g.change()).isCloseTo(0.0, within(1e-12));
    assertThat(g.problem()).isNull();
  }

  @Test
  void geomeanRefusesACentreOfZeroAsBenchstatDoes() {
    Summary zero = GoBenchSummaries.of(new double[] {0, 0, 0});
    Summary some = GoBenchSummaries.of(new double[] {64});
    Geomean g = GoBenchSummaries.geomean(List.of("Encode-8", "Checksum-8"),
        List.of(some, zero), List.of(some, zero));
    assertThat(g.baseline()).isNaN();
    assertThat(g.problem()).isEqualTo("needs every centre > 0, Checksum-8 has 0");
  }

  @Test
  void centresShowFourSignificantDigits() {
    assertThat(GoBenchTable.centre(1226.35)).isEqualTo("1.226k");
    assertThat(GoBenchTable.centre(512.55)).isEqualTo("512.6");
    assertThat(GoBenchTable.centre(7991.83)).isEqualTo("7.992k");
    assertThat(GoBenchTable.centre(12.5e6)).isEqualTo("12.50M");
    assertThat(GoBenchTable.centre(999.96)).isEqualTo("1.000k");
    assertThat(GoBenchTable.centre(0.25)).isEqualTo("0.2500");
    assertThat(GoBenchTable.centre(0)).isEqualTo("0");
  }
}
