package dev.abfleet.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A nightly series as an SVG chart: per run in run order, the baseline's centre, the
 * candidate's centre and the candidate's interval as a vertical whisker (runs that measured
 * nothing leave a gap), the x axis labelled with the runs' dates, a dashed vertical line where
 * a change point of the candidate's series starts, and each segment's median as a horizontal
 * stroke, so a shift reads at a glance. Points carry {@code data-run} (the run's 1-based number)
 * and {@code data-arm} (baseline or candidate), whiskers {@code data-interval} (the run's
 * number), change lines {@code data-change} (the first run after it).
 */
public final class SeriesChart {
  private SeriesChart() {}

  /** A date label is this wide per character at the axis' font size, px (with some room). */
  private static final double CHAR_PX = 7;

  /**
   * One run of the series, in the metric's unit; NaN where the run has no such value.
   *
   * @param date when the run was due, ISO-8601 instant (2026-03-10T02:30:00Z)
   * @param baseline the baseline's centre
   * @param candidate the candidate's centre (the series change points are found in)
   * @param low the candidate's interval, low end
   * @param high the candidate's interval, high end
   * @param title what hovering over the run's candidate point or a screen reader tells
   */
  public record Run(String date, double baseline, double candidate, double low, double high,
      String title) {}

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
   * @param unit the metric's unit, for the baseline points' and whiskers' titles
   * @param runs the schedule's runs, oldest first
   * @param changes where the candidate's series shifts
   * @param segmentMedians one per segment (changes.size() + 1), NaN when a segment has no value
   */
  public static String svg(String id, String metric, String yLabel, String unit, List<Run> runs,
      List<Change> changes, double[] segmentMedians) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    int measured = 0;
    for (Run r : runs) {
      for (double v : new double[] {r.baseline(), r.candidate(), r.low(), r.high()}) {
        if (Double.isFinite(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
      measured += Double.isFinite(r.candidate()) ? 1 : 0;
    }
    if (lo > hi) {
      lo = 0;
      hi = 1;
    }
    Svg svg = new Svg(0.5, runs.size() + 0.5, lo, hi);
    svg.yAxis(yLabel, Numbers::value);
    DateLabels dates = DateLabels.of(runs.stream().map(Run::date).toList());
    int widest = dates.labels().stream().mapToInt(String::length).max().orElse(1);
    int most = Math.max(2, (int) ((Svg.WIDTH - 88) / (widest * CHAR_PX + 12)));
    svg.xAxis(dates.axisLabel(), t -> t >= 1 && t <= runs.size() ? dates.labels().get(t - 1) : "", most);
    int start = 0;
    for (int k = 0; k <= changes.size(); k++) {
      int end = k < changes.size() ? changes.get(k).index() : runs.size();
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
    for (int i = 0; i < runs.size(); i++) {
      Run r = runs.get(i);
      String run = "data-run=\"" + (i + 1) + "\"";
      if (Double.isFinite(r.low()) && Double.isFinite(r.high())) {
        svg.whisker(i + 1, r.low(), r.high(), "run-interval", "data-interval=\"" + (i + 1) + "\"", dates.labels().get(i)
            + ": candidate's interval " + Numbers.value(r.low()) + " to " + Numbers.withUnit(r.high(), unit));
      }
      if (Double.isFinite(r.baseline())) {
        svg.point(i + 1, r.baseline(), 0, run + " data-arm=\"baseline\"",
            dates.labels().get(i) + ": baseline " + Numbers.withUnit(r.baseline(), unit));
      }
      if (Double.isFinite(r.candidate())) {
        svg.point(i + 1, r.candidate(), 1, run + " data-arm=\"candidate\"", r.title());
      }
    }
    String desc = measured + " runs measured " + metric + ", baseline and candidate per run with the"
        + " candidate's interval; " + (changes.isEmpty() ? "no change point" : changes.size()
            + " change point" + (changes.size() == 1 ? "" : "s") + ", before run "
            + String.join(", ", changes.stream().map(c -> String.valueOf(c.index() + 1)).toList()));
    return svg.render(id, metric + " over the schedule's runs", desc,
        "data-chart=\"series\" " + HtmlText.attr("data-metric", metric));
  }

  /**
   * The runs' dates as short tick labels: the shortest of month-day, hour:minute (all on one
   * day), month-day hour:minute and with seconds that tells every run apart, in UTC, with the
   * year in the axis label when all runs fall in one year. A date that does not parse shows as
   * written.
   */
  record DateLabels(List<String> labels, String axisLabel) {
    static DateLabels of(List<String> dates) {
      List<Instant> when = new ArrayList<>();
      for (String d : dates) {
        try {
          when.add(Instant.parse(d));
        } catch (DateTimeParseException e) {
          return new DateLabels(List.copyOf(dates), "run due");
        }
      }
      if (when.isEmpty()) {
        return new DateLabels(List.of(), "run due (UTC)");
      }
      boolean oneYear = when.stream().map(w -> w.atZone(ZoneOffset.UTC).getYear()).distinct().count() == 1;
      boolean oneDay = when.stream().map(w -> w.atZone(ZoneOffset.UTC).toLocalDate()).distinct().count() == 1;
      String year = oneYear ? "" : "yyyy-";
      List<String> patterns = oneDay ? List.of("HH:mm", "HH:mm:ss")
          : List.of(year + "MM-dd", year + "MM-dd HH:mm", year + "MM-dd HH:mm:ss");
      List<String> labels = List.of();
      for (String p : patterns) {
        DateTimeFormatter f = DateTimeFormatter.ofPattern(p, Locale.ROOT).withZone(ZoneOffset.UTC);
        labels = when.stream().map(f::format).toList();
        if (labels.stream().distinct().count() == labels.size()) {
          break;
        }
      }
      String first = when.get(0).atZone(ZoneOffset.UTC).toLocalDate().toString();
      String axis = oneDay ? "run due (UTC), " + first
          : oneYear ? "run due (UTC), " + first.substring(0, 4) : "run due (UTC)";
      return new DateLabels(labels, axis);
    }
  }
}
