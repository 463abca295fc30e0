package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.HostHealth;
import dev.abfleet.controller.fleet.NoiseHistory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * When a host should leave service: after {@link FleetPolicy#quarantineAfter()} INFRA failures
 * in a row, or when its paired noise drifts well past its own history
 * ({@link FleetPolicy#noiseRule()}). Both histories live in {@link SchedulerState} and change
 * only through the events returned here, so a controller restart keeps them; the caller
 * applies the fleet's cap and persists. Used by the scheduler actor only.
 */
final class Quarantines {
  private final FleetPolicy policy;

  Quarantines(FleetPolicy policy) {
    this.policy = policy;
  }

  /**
   * The events recording a boot's report on the host's INFRA streak: one more failure, the end
   * of a streak (any outcome that says something about the arm), or none.
   */
  List<Scheduler.Event> afterRun(HostHealth health, String hostId, boolean infra) {
    if (infra) {
      return List.of(new Scheduler.InfraFailed(hostId));
    }
    return health.streak(hostId) > 0 ? List.of(new Scheduler.InfraStreakEnded(hostId)) : List.of();
  }

  /** The reason to quarantine the host given its streak (after the run was applied), if any. */
  Optional<String> streakReason(HostHealth health, String hostId, String message) {
    int streak = health.streak(hostId);
    return streak < policy.quarantineAfter() ? Optional.empty()
        : Optional.of(streak + " INFRA failures in a row; last: " + message);
  }

  /** The events recording an experiment's residuals, one per host that has any. */
  List<Scheduler.Event> noiseRecorded(Map<String, double[]> residualsByHost) {
    List<Scheduler.Event> events = new ArrayList<>();
    residualsByHost.forEach((host, residuals) -> events.add(
        new Scheduler.NoiseRecorded(host, residuals.clone(), policy.noiseRule().keep())));
    return events;
  }

  /** Host -> reason for each of {@code hosts} whose noise (with the new residuals) drifted. */
  Map<String, String> drifted(NoiseHistory noise, Iterable<String> hosts, String experimentId) {
    Map<String, String> drifted = new LinkedHashMap<>();
    for (String host : hosts) {
      noise.drift(host, policy.noiseRule())
          .ifPresent(why -> drifted.put(host, why + " (after experiment " + experimentId + ")"));
    }
    return drifted;
  }
}
