package dev.abfleet.cli.history;

import dev.abfleet.stats.changepoint.ChangePoint;
import dev.abfleet.stats.changepoint.ChangePoints;
import dev.abfleet.stats.changepoint.Detection;
import dev.abfleet.stats.changepoint.Settings;
import java.util.List;

/**
 * One metric's nightly series from a schedule's history, with its change points. Runs that did
 * not complete or did not measure the metric stay in the table as gaps (NaN), which change-point
 * detection leaves out.
 *
 * @param series "center" (the candidate's median per run, in unit) or "change" (per-run change
 *     against that run's baseline, relative)
 */
public record MetricHistory(String schedule, String metric, String series, String unit, String better,
    List<HistoryEntry> runs, double[] values, Detection detection) {

  /** Seed of the permutation tests: the same history always shows the same change points. */
  public static final long SEED = 0x6e16_47L;

  public static MetricHistory of(String schedule, String metric, String series, List<HistoryEntry> runs,
      Settings settings) {
    double[] values = new double[runs.size()];
    String unit = "";
    String better = "";
    for (int i = 0; i < runs.size(); i++) {
      HistoryEntry e = runs.get(i);
      var m = e.metric(metric).filter(x -> e.state().equals("completed"));
      values[i] = m.map(x -> series.equals("change") ? x.change() : x.candidateCenter()).orElse(Double.NaN);
      if (m.isPresent() && unit.isEmpty()) {
        unit = m.get().unit();
        better = m.get().better();
      }
    }
    Detection d = ChangePoints.detect(values, settings, SEED);
    return new MetricHistory(schedule, metric, series, unit, better, List.copyOf(runs), values, d);
  }

  /** The change point starting at run {@code index}, if any. */
  public java.util.Optional<ChangePoint> changeAt(int index) {
    return detection.points().stream().filter(p -> p.index() == index).findFirst();
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

  /** Warnings of the change-point detection. */
  public List<String> warnings() {
    return detection.warnings();
  }
}
