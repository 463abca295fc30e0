package dev.abfleet.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SeriesChartTest {
  @Test
  void onePointPerMeasuredRunAndALinePerChangePoint() {
    double[] values = {10, 11, Double.NaN, 10, 20, 21, 19};
    List<String> titles = List.of("r1", "r2", "r3", "r4", "r5", "r6", "r7 <b>");

    String svg = SeriesChart.svg("s1", "seq_read", "seq_read (MiB/s)", values, titles,
        List.of(new SeriesChart.Change(4, "change before run 5")), new double[] {10, 20});

    assertThat(Pattern.compile("data-run=\"").matcher(svg).results().count()).isEqualTo(6);
    assertThat(svg).doesNotContain("data-run=\"3\"").contains("data-change=\"5\"")
        .contains("r7 &lt;b&gt;").contains("role=\"img\"").contains("data-chart=\"series\"")
        .contains("6 runs measured seq_read; 1 change point, before run 5")
        .contains("median of runs 1 to 4: 10.0").contains("median of runs 5 to 7: 20.0");
  }

  @Test
  void aSeriesWithoutValuesStillDrawsItsAxes() {
    String svg = SeriesChart.svg("s2", "m", "m", new double[] {Double.NaN, Double.NaN}, List.of("a", "b"),
        List.of(), new double[] {Double.NaN});

    assertThat(svg).contains("0 runs measured m; no change point").doesNotContain("data-run");
  }
}
