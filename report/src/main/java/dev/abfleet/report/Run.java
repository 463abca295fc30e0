package dev.abfleet.report;

import java.util.List;

/**
 * What the fleet knows about an experiment it ran, beyond its verdicts.
 *
 * @param state "running", "completed", "cancelled" or "failed"
 * @param seed the seed of the AB/BA shuffle (and of the host bootstrap)
 * @param pairsDone completed pairs
 * @param pairsWanted the pair budget (the last look of a sequential design)
 * @param retriedBlocks blocks re-run after INFRA failures or lost leases
 * @param rejectedStale reports rejected for a lease epoch no longer in force
 * @param message why the experiment failed or was cancelled; empty otherwise
 * @param simulation true when it ran (or asked to run) on the simulated hypervisor
 * @param boots every boot listed: completed pairs, blocks in flight and warm-up boots, in order
 */
public record Run(
    String state,
    long seed,
    int pairsDone,
    int pairsWanted,
    int retriedBlocks,
    int rejectedStale,
    String message,
    boolean simulation,
    List<BootRecord> boots) {

  public Run {
    message = message == null ? "" : message;
    boots = List.copyOf(boots);
  }

  /** A sequential experiment that completed before its last look. */
  public boolean stoppedEarly() {
    return "completed".equals(state) && pairsDone < pairsWanted;
  }
}
