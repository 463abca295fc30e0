package dev.abfleet.controller.nightly;

import dev.abfleet.controller.CborSerializable;
import java.util.List;
import java.util.Optional;

/**
 * One finished run of a schedule, as the controller keeps it (the fields of a line of the old
 * {@code $ABFLEET_HOME/history/<schedule>.jsonl}, and the decision on it).
 *
 * @param date when the run was due (ISO-8601 instant, e.g. 2026-03-10T02:30:00Z)
 * @param experiment the experiment id
 * @param state the experiment's final state: completed, failed or cancelled
 * @param baseline the baseline kernel; null when the run failed before its kernels were found
 * @param candidate the candidate kernel; null when the run failed before its kernels were found
 * @param overall worst gating verdict (regressed, inconclusive, holds, improved, no_change);
 *     empty when none was reached
 * @param accepted {@code decision} is "accepted": the candidate becomes the baseline of
 *     {@code last_accepted} schedules
 * @param message why the run failed or was cancelled; empty otherwise
 * @param simulation the run was on sim hosts
 * @param decision {@link #ACCEPTED}, {@link #HELD} or {@link #REJECTED}
 * @param decidedBy {@link #BY_GATE} or {@link #BY_OPERATOR}; empty for a run imported without one
 * @param decisionReason why, in one line (the gate's result and the metrics that decided it, or
 *     the operator's words)
 * @param decidedAtMs when it was decided, epoch milliseconds; 0 = not known (imported)
 */
public record RunRecord(String schedule, String date, String experiment, String state, Artifact baseline,
    Artifact candidate, List<Metric> metrics, String overall, boolean accepted, String message,
    boolean simulation, String decision, String decidedBy, String decisionReason, long decidedAtMs)
    implements CborSerializable {

  public static final String ACCEPTED = "accepted";
  public static final String HELD = "held";
  public static final String REJECTED = "rejected";
  public static final String BY_GATE = "gate";
  public static final String BY_OPERATOR = "operator";

  public RunRecord {
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
    overall = overall == null ? "" : overall;
    message = message == null ? "" : message;
    // Runs recorded before decisions existed (journal, imported files) carry only accepted.
    decision = decision == null || decision.isEmpty() ? legacyDecision(accepted, state, overall) : decision;
    accepted = decision.equals(ACCEPTED);
    decidedBy = decidedBy == null ? "" : decidedBy;
    decisionReason = decisionReason == null ? "" : decisionReason;
  }

  /** A run recorded without a decision: accepted as recorded, else held when it completed undecided. */
  public RunRecord(String schedule, String date, String experiment, String state, Artifact baseline,
      Artifact candidate, List<Metric> metrics, String overall, boolean accepted, String message,
      boolean simulation) {
    this(schedule, date, experiment, state, baseline, candidate, metrics, overall, accepted, message, simulation,
        "", "", "", 0);
  }

  private static String legacyDecision(boolean accepted, String state, String overall) {
    if (accepted) {
      return ACCEPTED;
    }
    return "completed".equals(state) && !"regressed".equals(overall) ? HELD : REJECTED;
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

  /** True when the run waits for an operator: finished, neither accepted nor rejected. */
  public boolean held() {
    return decision.equals(HELD);
  }

  /** This run with a decision: accepted is true exactly when the decision is {@link #ACCEPTED}. */
  RunRecord decided(String decision, String by, String reason, long atMs) {
    return new RunRecord(schedule, date, experiment, state, baseline, candidate, metrics, overall,
        decision.equals(ACCEPTED), message, simulation, decision, by, reason, atMs);
  }

  /** A run that ended before an experiment could run it. */
  static RunRecord failed(String schedule, String date, String experiment, String message, boolean simulation) {
    return new RunRecord(schedule, date, experiment, "failed", null, null, List.of(), "", false, message, simulation);
  }
}
