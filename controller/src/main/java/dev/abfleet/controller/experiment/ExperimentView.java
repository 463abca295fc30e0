package dev.abfleet.controller.experiment;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.stats.verdict.Assessment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * An experiment as clients see it (the reply to Get and Cancel).
 *
 * @param state "running", "completed", "cancelled", "failed", or "unknown" for an id never
 *     submitted
 * @param assessment the verdicts of the completed pairs ({@link ReportInputs#assess})
 * @param boots counted boots (completed pairs and the blocks in flight), warm-up boots and boots
 *     kept for the record of blocks re-run for interference ({@link RunOutcome#rerun}), by pair, a
 *     pair's warm-ups first, then re-run boots, then order
 * @param retriedBlocks blocks abandoned and re-run (infra failures, lost leases, restarts)
 * @param rejectedStale reports rejected for a block not in flight under their lease epoch
 * @param meanBlockMs mean wall time of a completed block in ms (its boots' run and staging
 *     time); 0 = no block completed yet
 * @param interferedReruns blocks re-run because a boot of theirs was interfered (also counted in
 *     {@code retriedBlocks})
 */
public record ExperimentView(
    String id,
    ExperimentSpec spec,
    String state,
    int pairsDone,
    int pairsWanted,
    long seed,
    Assessment assessment,
    List<RunOutcome> boots,
    String message,
    int retriedBlocks,
    int rejectedStale,
    long meanBlockMs,
    int interferedReruns)
    implements CborSerializable {

  public static final String UNKNOWN = "unknown";

  /** A view without re-runs for interference. */
  public ExperimentView(String id, ExperimentSpec spec, String state, int pairsDone, int pairsWanted,
      long seed, Assessment assessment, List<RunOutcome> boots, String message, int retriedBlocks,
      int rejectedStale, long meanBlockMs) {
    this(id, spec, state, pairsDone, pairsWanted, seed, assessment, boots, message, retriedBlocks,
        rejectedStale, meanBlockMs, 0);
  }

  public boolean known() {
    return !UNKNOWN.equals(state);
  }

  public boolean terminal() {
    return known() && !"running".equals(state);
  }

  public static ExperimentView of(ExperimentState s) {
    return of(s, s.status() == ExperimentState.Status.NEW ? Assessment.EMPTY
        : ReportInputs.assess(s.spec(), s.completedPairs(), s.seed()));
  }

  /**
   * The view of {@code s} with its verdicts computed already: they depend only on the
   * completed pairs, which change far less often than the rest of the state.
   */
  public static ExperimentView of(ExperimentState s, Assessment assessment) {
    if (s.status() == ExperimentState.Status.NEW) {
      return new ExperimentView(s.id(), null, UNKNOWN, 0, 0, 0, Assessment.EMPTY, List.of(), "",
          0, 0, 0);
    }
    List<RunOutcome> boots = new ArrayList<>();
    s.pairs().values().forEach(boots::addAll);
    s.inFlight().values().forEach(b -> boots.addAll(b.outcomesInOrder()));
    boots.addAll(s.warmups());
    boots.addAll(s.reruns());
    boots.sort(Comparator.comparingInt(RunOutcome::pairIndex)
        .thenComparing(RunOutcome::warmup, Comparator.reverseOrder())
        .thenComparing(RunOutcome::rerun, Comparator.reverseOrder())
        .thenComparingInt(RunOutcome::orderInPair));
    return new ExperimentView(s.id(), s.spec(), s.status().wire(), s.pairs().size(),
        s.pairsWanted(), s.seed(), assessment, List.copyOf(boots),
        s.message(), s.retriedBlocks(), s.rejectedStale(), meanBlockMs(s), s.interferedRerunCount());
  }

  /**
   * Seconds until every pair is done if the remaining pairs take as long as the completed ones
   * and run {@code hosts} at a time (at least one); 0 = unknown (no completed block) or finished.
   */
  public long etaSeconds(int hosts) {
    int remaining = pairsWanted - pairsDone;
    if (terminal() || !known() || meanBlockMs <= 0 || remaining <= 0) {
      return 0;
    }
    long rounds = (remaining + Math.max(1, hosts) - 1) / Math.max(1, hosts);
    return Math.max(1, (rounds * meanBlockMs + 999) / 1000);
  }

  private static long meanBlockMs(ExperimentState s) {
    return (long) s.pairs().values().stream()
        .mapToLong(boots -> boots.stream().mapToLong(b -> b.runMs() + b.stageMs()).sum())
        .average().orElse(0);
  }
}
