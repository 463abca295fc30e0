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
    String hostFacts) {
  public InFlightBlock {
    runIds = List.copyOf(runIds);
    arms = List.copyOf(arms);
    recorded = Map.copyOf(recorded);
    hostClass = hostClass == null ? "" : hostClass;
    hostFacts = hostFacts == null ? "" : hostFacts;
  }

  /** A block without host class. */
  public InFlightBlock(String blockId, int pairIndex, String hostId, long epoch,
      List<String> runIds, List<String> arms, Map<String, RunOutcome> recorded) {
    this(blockId, pairIndex, hostId, epoch, runIds, arms, recorded, "", "");
  }

  public boolean contains(String runId) {
    return runIds.contains(runId);
  }

  /** Position of the run in boot order. */
  public int orderOf(String runId) {
    return runIds.indexOf(runId);
  }

  public String armOf(String runId) {
    return arms.get(orderOf(runId));
  }

  public boolean complete() {
    return recorded.keySet().containsAll(runIds);
  }

  public InFlightBlock with(RunOutcome outcome) {
    Map<String, RunOutcome> next = new HashMap<>(recorded);
    next.put(outcome.runId(), outcome);
    return new InFlightBlock(blockId, pairIndex, hostId, epoch, runIds, arms, next, hostClass,
        hostFacts);
  }

  /** Recorded outcomes in boot order. */
  public List<RunOutcome> outcomesInOrder() {
    return runIds.stream().filter(recorded::containsKey).map(recorded::get).toList();
  }
}
