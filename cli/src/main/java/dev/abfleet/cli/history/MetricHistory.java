package dev.abfleet.cli.history;

import dev.abfleet.proto.fleet.v1.GetSeriesResponse;
import dev.abfleet.stats.changepoint.ChangePoint;
import java.util.List;
import java.util.Optional;

/**
 * One metric's nightly series as the controller computed it (GetSeries), with its change points:
 * what {@link HistoryFormat} prints. Runs that did not complete or did not measure the metric are
 * gaps (NaN).
 *
 * @param series "center" (the candidate's median per run, in unit) or "change" (per-run change
 *     against that run's baseline, relative)
 */
public record MetricHistory(String schedule, String metric, String series, String unit, String better,
    List<HistoryEntry> runs, double[] values, List<ChangePoint> points, List<String> warnings) {

  public static MetricHistory of(GetSeriesResponse r) {
    double[] values = r.getValuesList().stream().mapToDouble(Double::doubleValue).toArray();
    return new MetricHistory(r.getSchedule(), r.getMetric(), r.getSeries(), r.getUnit(), r.getBetter(),
        r.getRunsList().stream().map(HistoryRuns::fromProto).toList(), values,
        r.getChangePointsList().stream().map(c -> new ChangePoint(c.getIndex(), c.getBefore(), c.getAfter(),
            c.getShift(), c.getRelative(), c.getStatistic(), c.getPValue())).toList(),
        List.copyOf(r.getWarningsList()));
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
