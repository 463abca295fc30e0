package dev.abfleet.controller.bisect;

import dev.abfleet.controller.experiment.ExperimentView;
import dev.abfleet.stats.verdict.Row;
import java.util.List;

/** What a probe's finished experiment says about the probed kernel. */
final class ProbeExperiments {
  private ProbeExperiments() {}

  /**
   * The probe arm's comparison on {@code metric} (its pooled row, the first of the arm's rows);
   * an experiment without one is inconclusive.
   */
  static ProbeRunner.Finished finished(ExperimentView view, String probeArm, String metric) {
    Row row = view.assessment().rows().stream()
        .filter(r -> r.arm().equals(probeArm) && r.comparison().metric().equals(metric))
        .findFirst().orElse(null);
    int pairs = view.pairsDone();
    int boots = view.boots().size();
    if (row == null) {
      return new ProbeRunner.Finished(view.id(), pairs, boots, "inconclusive", "higher", Double.NaN,
          Double.NaN, Double.NaN, List.of("the experiment reported no comparison of " + metric));
    }
    var c = row.comparison();
    return new ProbeRunner.Finished(view.id(), pairs, boots, c.verdict().wire(), c.better().wire(),
        c.change(), c.ciLow(), c.ciHigh(), c.reasons());
  }
}
