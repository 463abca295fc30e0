package dev.abfleet.controller.nightly;

import dev.abfleet.controller.CborSerializable;
import java.util.List;

/** What the {@link Nightly} actor records in the journal. */
public sealed interface NightlyEvent extends CborSerializable {

  /**
   * A run's kernels are in the controller's store and its experiment is (about to be) submitted.
   *
   * @param due when it was due, ISO-8601 instant
   */
  record RunStarted(String schedule, String due, String experimentId, RunRecord.Artifact baseline,
      RunRecord.Artifact candidate, boolean simulation) implements NightlyEvent {}

  /** A run ended (its experiment reached a terminal state, or the run could not start). */
  record RunFinished(RunRecord run) implements NightlyEvent {}

  /**
   * An operator accepted or rejected a held run.
   *
   * @param decidedAtMs epoch milliseconds
   */
  record RunDecided(String experimentId, boolean accept, String reason, long decidedAtMs) implements NightlyEvent {}

  /** Runs of an old history file, none of them known before. */
  record RunsImported(List<RunRecord> runs) implements NightlyEvent {
    public RunsImported {
      runs = List.copyOf(runs);
    }
  }
}
