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
 * @param accepted true when the run was accepted (its decision): the candidate may become the
 *     baseline of {@code last_accepted} schedules
 * @param message why the experiment failed or was cancelled; empty otherwise
 * @param decision accepted, held (gate inconclusive: the baseline did not move) or rejected;
 *     empty in files written before decisions existed (then {@code accepted} says it)
 * @param decidedBy gate or operator; empty when not known
 * @param decisionReason one line: the gate's result or the operator's words; empty when not known
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
    boolean simulation,
    String decision,
    String decidedBy,
    String decisionReason) {

  public static final int VERSION = 1;

  public HistoryEntry {
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
    decision = decision == null ? "" : decision;
    decidedBy = decidedBy == null ? "" : decidedBy;
    decisionReason = decisionReason == null ? "" : decisionReason;
  }

  /** An entry without a decision (files written before decisions existed). */
  public HistoryEntry(int version, String schedule, String date, String experiment, String state,
      Artifact baseline, Artifact candidate, List<Metric> metrics, String overall, boolean accepted,
      String message, boolean simulation) {
    this(version, schedule, date, experiment, state, baseline, candidate, metrics, overall, accepted,
        message, simulation, "", "", "");
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

  /** The decision as shown: accepted, held or rejected; from {@code accepted} (yes/no) when the entry has none. */
  public String shownDecision() {
    return !decision.isEmpty() ? decision : accepted ? "yes" : "no";
  }

  /** This run's result on {@code metric}, if it measured it. */
  public Optional<Metric> metric(String name) {
    return metrics.stream().filter(m -> m.metric().equals(name)).findFirst();
  }
}
