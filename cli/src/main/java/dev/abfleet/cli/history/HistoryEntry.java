package dev.abfleet.cli.history;

import java.util.List;
import java.util.Optional;

/**
 * One run of a schedule, one line of {@code $ABFLEET_HOME/history/<schedule>.jsonl}. The field
 * names are the file format: rename only with a version bump.
 *
 * @param version format version, 1
 * @param date when the run was due (ISO-8601 instant, e.g. 2026-03-10T02:30:00Z)
 * @param experiment the experiment id at the controller
 * @param state the experiment's final state: completed, failed or cancelled
 * @param overall worst gating verdict (regressed, inconclusive, improved, no_change); empty
 *     when none was reached
 * @param accepted true when the experiment completed and no gating metric regressed: the
 *     candidate may become the baseline of {@code last_accepted} schedules
 * @param message why the experiment failed or was cancelled; empty otherwise
 */
public record HistoryEntry(
    int version,
    String schedule,
    String date,
    String experiment,
    String state,
    Artifact baseline,
    Artifact candidate,
    List<Metric> metrics,
    String overall,
    boolean accepted,
    String message,
    boolean simulation) {

  public static final int VERSION = 1;

  public HistoryEntry {
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
  }

  /** An entry of real boots (entries written before the field existed read as false too). */
  public HistoryEntry(int version, String schedule, String date, String experiment, String state,
      Artifact baseline, Artifact candidate, List<Metric> metrics, String overall, boolean accepted,
      String message) {
    this(version, schedule, date, experiment, state, baseline, candidate, metrics, overall, accepted,
        message, false);
  }

  /** A kernel image: where it was read from and its SHA-256 (lower-case hex). */
  public record Artifact(String path, String sha256) {}

  /**
   * One metric's result. Centers are in {@code unit}; change, ciLow and ciHigh are relative
   * (candidate/baseline - 1), NaN when not computable (written as "NaN").
   */
  public record Metric(
      String metric,
      String unit,
      String better,
      boolean gating,
      double baselineCenter,
      double candidateCenter,
      double change,
      double ciLow,
      double ciHigh,
      String verdict) {}

  /** This run's result on {@code metric}, if it measured it. */
  public Optional<Metric> metric(String name) {
    return metrics.stream().filter(m -> m.metric().equals(name)).findFirst();
  }
}
