package dev.abfleet.controller.experiment;

import dev.abfleet.controller.plan.HostQuiet;
import dev.abfleet.controller.CborSerializable;
import java.util.List;

/** What happened to an experiment; persisted, replayed on recovery. */
public sealed interface ExperimentEvent extends CborSerializable {

  /** The spec was accepted; {@code seed} is the one the pair order uses. */
  record ExperimentSubmitted(String experimentId, ExperimentSpec spec, long seed)
      implements ExperimentEvent {}

  /**
   * A block of pair {@code pairIndex} went to a host; run ids and arms in boot order.
   *
   * @param hostClass the class the block is expected to run in ({@link HostClassKey#planned});
   *     empty in events recorded before classes existed
   * @param hostFacts the host's class_by facts, recorded on each of the block's boots
   * @param warmupRunId the run id of the block's warm-up boot (booted first); null or empty = none
   */
  record BlockStarted(
      String blockId,
      int pairIndex,
      int attempt,
      String hostId,
      long epoch,
      List<String> runIds,
      List<String> arms,
      String hostClass,
      String hostFacts,
      String warmupRunId)
      implements ExperimentEvent {
    public BlockStarted {
      hostClass = hostClass == null ? "" : hostClass;
      hostFacts = hostFacts == null ? "" : hostFacts;
      warmupRunId = warmupRunId == null ? "" : warmupRunId;
    }

    /** A block without host class or warm-up boot. */
    public BlockStarted(String blockId, int pairIndex, int attempt, String hostId, long epoch,
        List<String> runIds, List<String> arms) {
      this(blockId, pairIndex, attempt, hostId, epoch, runIds, arms, "", "", "");
    }
  }

  /** A boot of an in-flight block reported (ok or failed about the arm). */
  record RunRecorded(RunOutcome outcome, String blockId) implements ExperimentEvent {}

  /** A report for a block that is not in flight under that epoch; counted, not used. */
  record RunRejected(String runId, String blockId, long epoch) implements ExperimentEvent {}

  /**
   * The block will not count (infra failure, lease lost, restart): its pair runs again later.
   *
   * @param charged true when it counts toward the pair's attempt limit
   * @param hostFault true when the host failed it (INFRA): the pair avoids that host next time
   * @param lost true when the block lost its host to the infrastructure (lease lost, controller
   *     restart) rather than failing: it counts toward the pair's much larger limit of losses
   *     ({@link Decisions#MAX_LOST_PER_PAIR}); false in journals written before that limit
   * @param interfered true when a boot of the block was interfered (its host not quiet) and the
   *     quiet-host policy re-runs the pair: the block's recorded boots are kept for the record
   *     ({@link RunOutcome#rerun}) and the re-run counts toward
   *     {@link HostQuiet#maxRerunsPerPair}; false in journals written before the policy existed
   */
  record BlockAbandoned(String blockId, String reason, boolean charged, boolean hostFault,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT) boolean lost,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT) boolean interfered)
      implements ExperimentEvent {
    public BlockAbandoned(String blockId, String reason, boolean charged, boolean hostFault) {
      this(blockId, reason, charged, hostFault, false, false);
    }

    /** Not abandoned for interference. */
    public BlockAbandoned(String blockId, String reason, boolean charged, boolean hostFault,
        boolean lost) {
      this(blockId, reason, charged, hostFault, lost, false);
    }
  }

  /** Every boot of the block reported; the pair counts. */
  record PairCompleted(int pairIndex, String blockId) implements ExperimentEvent {}

  record ExperimentCompleted(int pairsDone) implements ExperimentEvent {}

  record ExperimentCancelled(String reason) implements ExperimentEvent {}

  record ExperimentFailed(String reason) implements ExperimentEvent {}
}
