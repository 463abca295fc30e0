package dev.abfleet.controller.nightly;

import dev.abfleet.controller.CborSerializable;
import java.util.List;
import java.util.Optional;

/**
 * One finished run of a schedule, as the controller keeps it (the fields of a line of the old
 * {@code $ABFLEET_HOME/history/<schedule>.jsonl}).
 *
 * @param date when the run was due (ISO-8601 instant, e.g. 2026-03-10T02:30:00Z)
 * @param experiment the experiment id
 * @param state the experiment's final state: completed, failed or cancelled
 * @param baseline the baseline kernel; null when the run failed before its kernels were found
 * @param candidate the candidate kernel; null when the run failed before its kernels were found
 * @param overall worst gating verdict (regressed, inconclusive, improved, no_change); empty
 *     when none was reached
 * @param accepted the experiment completed and no gating metric regressed: the candidate may
 *     become the baseline of {@code last_accepted} schedules
 * @param message why the run failed or was cancelled; empty otherwise
 * @param simulation the run was on sim hosts
 */
public record RunRecord(String schedule, String date, String experiment, String state, Artifact baseline,
    Artifact candidate, List<Metric> metrics, String overall, boolean accepted, String message,
    boolean simulation) implements CborSerializable {

  public RunRecord {
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
    overall = overall == null ? "" : overall;
    message = message == null ? "" : message;
  }

  /**
   * A kernel image.
   *
   * @param path where it was read from when the run started (on the controller)
   * @param sha256 lower-case hex; the artifact's name in the controller's store
   */
  public record Artifact(String path, String sha256) implements CborSerializable {}

  /**
   * One metric's result. Centers are in {@code unit}; change, ciLow and ciHigh are relative
   * (candidate/baseline - 1), NaN when not computable.
   */
  public record Metric(String metric, String unit, String better, boolean gating, double baselineCenter,
      double candidateCenter, double change, double ciLow, double ciHigh, String verdict)
      implements CborSerializable {}

  /** This run's result on {@code name}, if it measured it. */
  public Optional<Metric> metric(String name) {
    return metrics.stream().filter(m -> m.metric().equals(name)).findFirst();
  }

  /** A run that ended before an experiment could run it. */
  static RunRecord failed(String schedule, String date, String experiment, String message, boolean simulation) {
    return new RunRecord(schedule, date, experiment, "failed", null, null, List.of(), "", false, message, simulation);
  }
}
