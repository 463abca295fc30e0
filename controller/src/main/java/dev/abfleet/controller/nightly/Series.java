package dev.abfleet.controller.nightly;

import dev.abfleet.stats.changepoint.ChangePoints;
import dev.abfleet.stats.changepoint.Detection;
import dev.abfleet.stats.changepoint.Settings;
import java.util.List;

/**
 * One metric's series over a schedule's runs, with its change points. Runs that did not complete
 * or did not measure the metric stay in the series as gaps (NaN), which change-point detection
 * leaves out.
 *
 * @param series "center" (the candidate's median per run, in unit) or "change" (per-run change
 *     against that run's baseline, relative)
 * @param values one per run, NaN for a gap
 * @param minChange the smallest change the points were judged with; 0 = none
 */
public record Series(String schedule, String metric, String series, String unit, String better,
    List<RunRecord> runs, double[] values, Detection detection, double minChange) {

  /** Seed of the permutation tests: the same history always shows the same change points. */
  public static final long SEED = 0x6e16_47L;

  public static Series of(String schedule, String metric, String series, List<RunRecord> runs, Settings settings) {
    double[] values = new double[runs.size()];
    String unit = "";
    String better = "";
    for (int i = 0; i < runs.size(); i++) {
      RunRecord e = runs.get(i);
      var m = e.metric(metric).filter(x -> e.state().equals("completed"));
      values[i] = m.map(x -> series.equals("change") ? x.change() : x.candidateCenter()).orElse(Double.NaN);
      if (m.isPresent() && unit.isEmpty()) {
        unit = m.get().unit();
        better = m.get().better();
      }
    }
    // Per-run changes are already relative to that run's baseline: judged by their shift.
    Detection d = ChangePoints.detect(values, settings.withDifferences(series.equals("change")), SEED);
    return new Series(schedule, metric, series, unit, better, List.copyOf(runs), values, d, settings.minRelative());
  }
}
