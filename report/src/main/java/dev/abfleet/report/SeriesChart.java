package dev.abfleet.report;

import java.util.List;
import java.util.Locale;

/**
 * A nightly series as an SVG chart: one point per run in run order (gaps, runs that measured
 * nothing, left out), a dashed vertical line where a change point starts, and each segment's
 * median as a horizontal stroke, so a shift reads at a glance. Points carry {@code data-run}
 * (the run's 1-based number) and change lines {@code data-change} (the first run after it).
 */
public final class SeriesChart {
  private SeriesChart() {}

  /**
   * One change point: the series shifts before run {@code index} (0-based).
   *
   * @param title what hovering or a screen reader tells about it
   */
  public record Change(int index, String title) {}

  /**
   * @param id unique in the page (ids of the title and description derive from it)
   * @param metric the metric's name, for the title and {@code data-metric}
   * @param yLabel the y axis' label, with its unit
   * @param values one per run, NaN for a gap; relative changes already in percent when wanted
   * @param runTitles one per run, what a point tells (date, experiment, value)
   * @param changes where the series shifts
   * @param segmentMedians one per segment (changes.size() + 1), NaN when a segment has no value
   */
  public static String svg(String id, String metric, String yLabel, double[] values, List<String> runTitles,
      List<Change> changes, double[] segmentMedians) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    int measured = 0;
    for (double v : values) {
      if (Double.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
        measured++;
      }
    }
    if (measured == 0) {
      lo = 0;
      hi = 1;
    }
    Svg svg = new Svg(0.5, values.length + 0.5, lo, hi);
    svg.yAxis(yLabel, v -> Numbers.value(v));
    svg.xAxis("run");
    int start = 0;
    for (int k = 0; k <= changes.size(); k++) {
      int end = k < changes.size() ? changes.get(k).index() : values.length;
      double median = k < segmentMedians.length ? segmentMedians[k] : Double.NaN;
      if (Double.isFinite(median) && end > start) {
        svg.segment(start + 0.6, end + 0.4, median, "segment",
            String.format(Locale.ROOT, "median of runs %d to %d: %s", start + 1, end, Numbers.value(median)));
      }
      start = end;
    }
    for (Change c : changes) {
      svg.vline(c.index() + 0.5, "change-point", "data-change=\"" + (c.index() + 1) + "\"", c.title());
    }
    for (int i = 0; i < values.length; i++) {
      if (Double.isFinite(values[i])) {
        svg.point(i + 1, values[i], 0, "data-run=\"" + (i + 1) + "\"", runTitles.get(i));
      }
    }
    String desc = measured + " runs measured " + metric + "; "
        + (changes.isEmpty() ? "no change point" : changes.size() + " change point" + (changes.size() == 1 ? "" : "s")
            + ", before run " + String.join(", ", changes.stream().map(c -> String.valueOf(c.index() + 1)).toList()));
    return svg.render(id, metric + " over the schedule's runs", desc,
        "data-chart=\"series\" " + HtmlText.attr("data-metric", metric));
  }
}
