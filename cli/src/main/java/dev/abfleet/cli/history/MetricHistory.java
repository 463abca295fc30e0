package dev.abfleet.cli.history;

import dev.abfleet.proto.fleet.v1.GetSeriesResponse;
import dev.abfleet.stats.changepoint.ChangePoint;
import dev.abfleet.controller.nightly.Series;
import dev.abfleet.stats.changepoint.ChangePoints;
import dev.abfleet.stats.changepoint.Detection;
import dev.abfleet.stats.changepoint.Settings;
import java.util.List;
import java.util.Optional;

/**
 * One metric's nightly series as the controller computed it (GetSeries), with its change points:
 * what {@link HistoryFormat} prints. Runs that did not complete or did not measure the metric are
 * gaps (NaN).
 *
 * @param series "center" (the candidate's median per run, in unit) or "change" (per-run change
 *     against that run's baseline, relative)
 * @param minChange the smallest change the points were judged with (see GetSeriesRequest); 0 = none
 * @param offline read from a file by {@code history analyze}: each run is a value with an
 *     optional date and label (in {@link HistoryEntry#experiment()}), no A/B behind it
 */
public record MetricHistory(String schedule, String metric, String series, String unit, String better,
    List<HistoryEntry> runs, double[] values, List<ChangePoint> points, List<String> warnings,
    double minChange, boolean offline) {

  /**
   * A series from a file, with what {@link ChangePoints#detect} found in it: the detection the
   * controller runs on its schedules' series, with the same seed.
   */
  public static MetricHistory offline(String name, String unit, List<SeriesFile.Point> points, Settings settings) {
    double[] values = points.stream().mapToDouble(SeriesFile.Point::value).toArray();
    List<HistoryEntry> runs = points.stream().map(p -> new HistoryEntry(HistoryEntry.VERSION, "", p.date(),
        p.label(), "completed", null, null, List.of(), "", false, "")).toList();
    Detection d = ChangePoints.detect(values, settings, Series.SEED);
    return new MetricHistory("", name, "center", unit, "", runs, values, d.points(), d.warnings(),
        settings.minRelative(), true);
  }

  public static MetricHistory of(GetSeriesResponse r) {
    double[] values = r.getValuesList().stream().mapToDouble(Double::doubleValue).toArray();
    return new MetricHistory(r.getSchedule(), r.getMetric(), r.getSeries(), r.getUnit(), r.getBetter(),
        r.getRunsList().stream().map(HistoryRuns::fromProto).toList(), values,
        r.getChangePointsList().stream().map(c -> new ChangePoint(c.getIndex(), c.getBefore(), c.getAfter(),
            c.getShift(), c.getRelative(), c.getStatistic(), c.getPValue())).toList(),
        List.copyOf(r.getWarningsList()), r.getMinChange(), false);
  }

  /** The change point starting at run {@code index}, if any. */
  public Optional<ChangePoint> changeAt(int index) {
    return points.stream().filter(p -> p.index() == index).findFirst();
  }

  /** Runs that measured the metric. */
  public int measured() {
    int n = 0;
    for (double v : values) {
      if (!Double.isNaN(v)) {
        n++;
      }
    }
    return n;
  }
}
