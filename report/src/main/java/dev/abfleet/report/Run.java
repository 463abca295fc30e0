package dev.abfleet.report;

import dev.abfleet.model.ArmBuild;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * @param builds by arm name, the arms whose kernel abfleet built from source; an arm booting a
 *     kernel image the user gave has none
 * @param bootTimeout the boot timeout rule and its limits; null = not known
 * @param interferedReruns blocks re-run because a boot of theirs was interfered (also counted in
 *     {@code retriedBlocks})
 * @param onInterference the quiet-host policy for interfered boots, "rerun" or "keep", "off" when
 *     the experiment had none; empty =
 *     not known (boots recorded outside the fleet or before the policy existed)
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
    List<BootRecord> boots,
    Map<String, ArmBuild> builds,
    BootTimeout bootTimeout,
    int interferedReruns,
    String onInterference) {

  public Run {
    message = message == null ? "" : message;
    onInterference = onInterference == null ? "" : onInterference;
    boots = List.copyOf(boots);
    builds = builds == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(builds));
  }

  /** A run without re-runs for interference, its quiet-host policy not known. */
  public Run(String state, long seed, int pairsDone, int pairsWanted, int retriedBlocks,
      int rejectedStale, String message, boolean simulation, List<BootRecord> boots,
      Map<String, ArmBuild> builds, BootTimeout bootTimeout) {
    this(state, seed, pairsDone, pairsWanted, retriedBlocks, rejectedStale, message, simulation,
        boots, builds, bootTimeout, 0, "");
  }

  /** A run whose boot timeout rule is not known. */
  public Run(String state, long seed, int pairsDone, int pairsWanted, int retriedBlocks,
      int rejectedStale, String message, boolean simulation, List<BootRecord> boots,
      Map<String, ArmBuild> builds) {
    this(state, seed, pairsDone, pairsWanted, retriedBlocks, rejectedStale, message, simulation,
        boots, builds, null);
  }

  /** A run none of whose arms abfleet built. */
  public Run(String state, long seed, int pairsDone, int pairsWanted, int retriedBlocks,
      int rejectedStale, String message, boolean simulation, List<BootRecord> boots) {
    this(state, seed, pairsDone, pairsWanted, retriedBlocks, rejectedStale, message, simulation,
        boots, Map.of());
  }

  /** The same run with the rule of its boot timeouts. */
  public Run withBootTimeout(BootTimeout rule) {
    return new Run(state, seed, pairsDone, pairsWanted, retriedBlocks, rejectedStale, message,
        simulation, boots, builds, rule, interferedReruns, onInterference);
  }

  /** The same run with its re-runs for interference and its quiet-host policy ("rerun", "keep"). */
  public Run withInterference(int reruns, String policy) {
    return new Run(state, seed, pairsDone, pairsWanted, retriedBlocks, rejectedStale, message,
        simulation, boots, builds, bootTimeout, reruns, policy);
  }

  /** A sequential experiment that completed before its last look. */
  public boolean stoppedEarly() {
    return "completed".equals(state) && pairsDone < pairsWanted;
  }
}
