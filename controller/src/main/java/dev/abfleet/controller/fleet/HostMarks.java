package dev.abfleet.controller.fleet;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.collection.PersistentMap;
import dev.abfleet.controller.collection.PersistentSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The durable states of hosts that are not about leases: drained by an operator, quarantined
 * after repeated infrastructure failures. Persisted by the scheduler, so both survive controller
 * restarts and worker reconnects.
 *
 * @param draining host ids an operator drained: they finish their block and take no new lease
 * @param quarantined host id -> why and since when; such hosts take no lease
 * @param drainReasons drained host id -> why the operator drained it; absent = no reason given
 *     (absent in states persisted before reasons were kept)
 */
public record HostMarks(Set<String> draining, Map<String, Quarantine> quarantined,
    Map<String, String> drainReasons) implements CborSerializable {

  /**
   * @param reason what put the host in quarantine, e.g. "3 INFRA failures in a row; last: ..."
   * @param sinceEpochMs when, in ms since the epoch
   */
  public record Quarantine(String reason, long sinceEpochMs) implements CborSerializable {}

  public HostMarks {
    // Persistent: marking a host costs O(1), not a copy of every mark.
    draining = PersistentSet.of(draining);
    quarantined = PersistentMap.of(quarantined);
    drainReasons = PersistentMap.of(drainReasons == null ? Map.of() : drainReasons);
  }

  public HostMarks(Set<String> draining, Map<String, Quarantine> quarantined) {
    this(draining, quarantined, Map.of());
  }

  public static HostMarks none() {
    return new HostMarks(Set.of(), Map.of(), Map.of());
  }

  /** Why an operator drained the host; empty when it is not drained or no reason was given. */
  public String drainReason(String hostId) {
    return draining.contains(hostId) ? drainReasons.getOrDefault(hostId, "") : "";
  }

  public boolean isDraining(String hostId) {
    return draining.contains(hostId);
  }

  public Optional<Quarantine> quarantine(String hostId) {
    return Optional.ofNullable(quarantined.get(hostId));
  }

  /** True when the host may take a new lease as far as operators and health are concerned. */
  public boolean usable(String hostId) {
    return !draining.contains(hostId) && !quarantined.containsKey(hostId);
  }

  public HostMarks drained(String hostId) {
    return drained(hostId, "");
  }

  /** Drained with this reason (empty = none), which replaces any earlier one. */
  public HostMarks drained(String hostId, String reason) {
    var reasons = (PersistentMap<String, String>) drainReasons;
    return new HostMarks(((PersistentSet<String>) draining).with(hostId), quarantined,
        reason == null || reason.isEmpty() ? reasons.without(hostId) : reasons.with(hostId, reason));
  }

  public HostMarks undrained(String hostId) {
    return new HostMarks(((PersistentSet<String>) draining).without(hostId), quarantined,
        ((PersistentMap<String, String>) drainReasons).without(hostId));
  }

  public HostMarks quarantinedHost(String hostId, Quarantine quarantine) {
    return new HostMarks(draining, ((PersistentMap<String, Quarantine>) quarantined).with(hostId, quarantine),
        drainReasons);
  }

  public HostMarks released(String hostId) {
    return new HostMarks(draining, ((PersistentMap<String, Quarantine>) quarantined).without(hostId),
        drainReasons);
  }
}
