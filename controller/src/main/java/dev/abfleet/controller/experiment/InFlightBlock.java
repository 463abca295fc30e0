package dev.abfleet.controller.experiment;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A block running on a host: its boots in order and the outcomes reported so far.
 *
 * @param recorded run id -> outcome
 * @param hostClass the class the block is expected to run in; empty = unknown
 * @param hostFacts the host's class_by facts, given to each recorded boot
 * @param warmupRunId run id of the warm-up boot among {@code runIds}; empty = none
 */
public record InFlightBlock(
    String blockId,
    int pairIndex,
    String hostId,
    long epoch,
    List<String> runIds,
    List<String> arms,
    Map<String, RunOutcome> recorded,
    String hostClass,
    String hostFacts,
    String warmupRunId) {
  public InFlightBlock {
    runIds = List.copyOf(runIds);
    arms = List.copyOf(arms);
    recorded = Map.copyOf(recorded);
    hostClass = hostClass == null ? "" : hostClass;
    hostFacts = hostFacts == null ? "" : hostFacts;
    warmupRunId = warmupRunId == null ? "" : warmupRunId;
  }

  /** A block without host class or warm-up boot. */
  public InFlightBlock(String blockId, int pairIndex, String hostId, long epoch,
      List<String> runIds, List<String> arms, Map<String, RunOutcome> recorded) {
    this(blockId, pairIndex, hostId, epoch, runIds, arms, recorded, "", "", "");
  }

  /** True for the block's warm-up boot. */
  public boolean isWarmup(String runId) {
    return !warmupRunId.isEmpty() && warmupRunId.equals(runId);
  }

  /** The arm booted first among the measured boots (the pair's order). */
  public String firstMeasuredArm() {
    return arms.get(warmupRunId.isEmpty() ? 0 : 1);
  }

  public boolean contains(String runId) {
    return runIds.contains(runId);
  }

  /** Position of the run in the pair's boot order (a warm-up boot is 0, like the first measured one). */
  public int orderOf(String runId) {
    int i = runIds.indexOf(runId);
    return warmupRunId.isEmpty() || i == 0 ? i : i - 1;
  }

  public String armOf(String runId) {
    return arms.get(runIds.indexOf(runId));
  }

  /** Every measured boot reported (the warm-up, if any, does not count). */
  public boolean complete() {
    return runIds.stream().filter(id -> !isWarmup(id)).allMatch(recorded::containsKey);
  }

  public InFlightBlock with(RunOutcome outcome) {
    Map<String, RunOutcome> next = new HashMap<>(recorded);
    next.put(outcome.runId(), outcome);
    return new InFlightBlock(blockId, pairIndex, hostId, epoch, runIds, arms, next, hostClass,
        hostFacts, warmupRunId);
  }

  /** Recorded outcomes of the measured boots (the pair's), in boot order; never the warm-up. */
  public List<RunOutcome> outcomesInOrder() {
    return runIds.stream().filter(id -> !isWarmup(id)).filter(recorded::containsKey).map(recorded::get).toList();
  }
}
