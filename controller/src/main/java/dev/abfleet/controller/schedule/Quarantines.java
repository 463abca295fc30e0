package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.HostHealth;
import dev.abfleet.controller.fleet.NoiseHistory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * When a host should leave service: after {@link FleetPolicy#quarantineAfter()} INFRA failures
 * in a row, or when its paired noise drifts well past its own history
 * ({@link FleetPolicy#noiseRule()}). Keeps both histories (in memory: a controller restart
 * forgives them); the caller applies the fleet's cap and persists the quarantine. Used by the
 * scheduler actor only.
 */
final class Quarantines {
  private final FleetPolicy policy;
  private HostHealth health = HostHealth.healthy();
  private NoiseHistory noise = NoiseHistory.empty();

  Quarantines(FleetPolicy policy) {
    this.policy = policy;
  }

  HostHealth health() {
    return health;
  }

  /**
   * A boot's report was handled; the reason to quarantine the host now, if any. Any outcome
   * that says something about the arm ends an INFRA streak.
   */
  Optional<String> afterRun(String hostId, boolean infra, String message) {
    if (!infra) {
      health = health.cleared(hostId);
      return Optional.empty();
    }
    health = health.failed(hostId);
    int streak = health.streak(hostId);
    return streak < policy.quarantineAfter() ? Optional.empty()
        : Optional.of(streak + " INFRA failures in a row; last: " + message);
  }

  /** Records an experiment's residuals per host; host -> reason for each host that drifted. */
  Map<String, String> afterNoise(String experimentId, Map<String, double[]> residualsByHost) {
    Map<String, String> drifted = new LinkedHashMap<>();
    residualsByHost.forEach((host, residuals) -> {
      noise = noise.observed(host, residuals, policy.noiseRule());
      noise.drift(host, policy.noiseRule())
          .ifPresent(why -> drifted.put(host, why + " (after experiment " + experimentId + ")"));
    });
    return drifted;
  }

  /** The host went into quarantine: its noise starts over after the repair. */
  void quarantined(String hostId) {
    noise = noise.forgotten(hostId);
  }

  /** An operator or the cool-down released the host: its INFRA streak starts over. */
  void released(String hostId) {
    health = health.cleared(hostId);
  }
}
