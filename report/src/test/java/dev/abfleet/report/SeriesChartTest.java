package dev.abfleet.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SeriesChartTest {
  private static List<SeriesChart.Run> runs(double... candidates) {
    List<SeriesChart.Run> out = new ArrayList<>();
    for (int i = 0; i < candidates.length; i++) {
      String date = String.format("2026-03-%02dT02:30:00Z", i + 1);
      double c = candidates[i];
      out.add(new SeriesChart.Run(date, Double.isFinite(c) ? 10 : Double.NaN, c, c - 0.5, c + 0.5, "r" + (i + 1)
          + (i == candidates.length - 1 ? " <b>" : "")));
    }
    return out;
  }

  @Test
  void onePointPerArmAndMeasuredRunAndALinePerChangePoint() {
    String svg = SeriesChart.svg("s1", "seq_read", "seq_read (MiB/s)", "MiB/s",
        runs(10, 11, Double.NaN, 10, 20, 21, 19),
        List.of(new SeriesChart.Change(4, "change before run 5")), new double[] {10, 20});

    assertThat(Pattern.compile("data-arm=\"candidate\"").matcher(svg).results().count()).isEqualTo(6);
    assertThat(Pattern.compile("data-arm=\"baseline\"").matcher(svg).results().count()).isEqualTo(6);
    assertThat(Pattern.compile("class=\"run-interval\"").matcher(svg).results().count()).isEqualTo(6);
    assertThat(svg).doesNotContain("data-run=\"3\"").contains("data-change=\"5\"")
        .contains("r7 &lt;b&gt;").contains("role=\"img\"").contains("data-chart=\"series\"")
        .contains("6 runs measured seq_read").contains("1 change point, before run 5")
        .contains("median of runs 1 to 4: 10.0").contains("median of runs 5 to 7: 20.0")
        .contains("03-07: candidate&#39;s interval 18.5 to 19.5 MiB/s");
  }

  @Test
  void theXAxisNamesEachRunsDateNotItsNumber() {
    String svg = SeriesChart.svg("s3", "m", "m", "", runs(1, 2, 3), List.of(), new double[] {Double.NaN});

    assertThat(svg).contains(">03-01</text>", ">03-02</text>", ">03-03</text>", ">run due (UTC), 2026</text>")
        .doesNotContain(">run</text>");
  }

  @Test
  void dateLabelsAreTheShortestThatTellRunsApart() {
    assertThat(SeriesChart.DateLabels.of(List.of("2026-03-01T02:30:00Z", "2026-03-02T02:30:00Z")).labels())
        .containsExactly("03-01", "03-02");
    assertThat(SeriesChart.DateLabels.of(List.of("2026-03-01T02:30:00Z", "2026-03-01T02:35:00Z")))
        .isEqualTo(new SeriesChart.DateLabels(List.of("02:30", "02:35"), "run due (UTC), 2026-03-01"));
    assertThat(SeriesChart.DateLabels.of(List.of("2026-03-01T02:30:00Z", "2026-03-01T02:30:20Z")).labels())
        .containsExactly("02:30:00", "02:30:20");
    assertThat(SeriesChart.DateLabels.of(List.of("2026-03-01T02:30:00Z", "2026-03-01T09:00:00Z",
        "2026-03-02T02:30:00Z")).labels()).containsExactly("03-01 02:30", "03-01 09:00", "03-02 02:30");
    assertThat(SeriesChart.DateLabels.of(List.of("2025-12-31T02:30:00Z", "2026-01-01T02:30:00Z")))
        .isEqualTo(new SeriesChart.DateLabels(List.of("2025-12-31", "2026-01-01"), "run due (UTC)"));
  }

  @Test
  void yTickLabelsAreDistinct() {
    // 31.2k to 31.5k: steps of 50 would print 31.2k twice (31200, 31250).
    String svg = SeriesChart.svg("s4", "m", "m", "", runs(31_210, 31_480), List.of(), new double[] {Double.NaN});

    List<String> labels = Pattern.compile("text-anchor=\"end\">([^<]*)</text>").matcher(svg).results()
        .map(r -> r.group(1)).toList();
    assertThat(labels).hasSizeGreaterThan(1).doesNotHaveDuplicates();
  }

  @Test
  void aSeriesWithoutValuesStillDrawsItsAxes() {
    String svg = SeriesChart.svg("s2", "m", "m", "", runs(Double.NaN, Double.NaN), List.of(),
        new double[] {Double.NaN});

    assertThat(svg).contains("0 runs measured m").doesNotContain("data-run");
  }
}
