package dev.abfleet.controller.fleet;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.collection.PersistentMap;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The durable facts of the fleet: the last epoch handed out per host and the leases in force.
 * Epochs only grow, across restarts too, so a result carrying an old epoch is always stale
 * ({@link Fence} has the rules).
 */
public record LeaseBook(Map<String, Long> lastEpoch, Map<String, Lease> active,
    @JsonIgnore Map<String, Integer> heldBy) implements CborSerializable {
  /**
   * Both maps are persistent: a lease or a release costs O(1), not a copy of every lease.
   * {@code heldBy} counts the leases in force per experiment, kept with every change so that
   * the scheduler never counts them by a scan of every lease; it is derived, not stored (null =
   * count {@code active}, as a snapshot is read).
   */
  public LeaseBook {
    lastEpoch = PersistentMap.of(lastEpoch);
    active = PersistentMap.of(active);
    heldBy = heldBy == null ? counted(active) : PersistentMap.of(heldBy);
  }

  public LeaseBook(Map<String, Long> lastEpoch, Map<String, Lease> active) {
    this(lastEpoch, active, null);
  }

  public static LeaseBook empty() {
    return new LeaseBook(Map.of(), Map.of());
  }

  private static Map<String, Integer> counted(Map<String, Lease> active) {
    Map<String, Integer> held = new HashMap<>();
    active.values().forEach(l -> held.merge(l.experimentId(), 1, Integer::sum));
    return PersistentMap.of(held);
  }

  /** Leases in force held by {@code experimentId}. */
  public int held(String experimentId) {
    return heldBy.getOrDefault(experimentId, 0);
  }

  /** The epoch the next lease of this host gets: strictly above every earlier one. */
  public long nextEpoch(String hostId) {
    return Fence.next(lastEpoch.get(hostId));
  }

  public Optional<Lease> leaseOf(String hostId) {
    return Optional.ofNullable(active.get(hostId));
  }

  public boolean isLeased(String hostId) {
    return active.containsKey(hostId);
  }

  /** True when (host, epoch) is the lease in force right now ({@link Fence#inForce}). */
  public boolean isCurrent(String hostId, long epoch) {
    return Fence.inForce(active.get(hostId), epoch);
  }

  /** Applies a lease; a second lease on a leased host or a non-increasing epoch cannot happen. */
  public LeaseBook leased(Lease lease) {
    if (active.containsKey(lease.hostId())) {
      throw new IllegalStateException("host " + lease.hostId() + " is already leased");
    }
    Fence.checkRises(lease, lastEpoch.get(lease.hostId()));
    return new LeaseBook(((PersistentMap<String, Long>) lastEpoch).with(lease.hostId(), lease.epoch()),
        ((PersistentMap<String, Lease>) active).with(lease.hostId(), lease),
        ((PersistentMap<String, Integer>) heldBy).with(lease.experimentId(), held(lease.experimentId()) + 1));
  }

  /** Releases the lease if (host, epoch) is current; otherwise nothing changes. */
  public LeaseBook released(String hostId, long epoch) {
    if (!isCurrent(hostId, epoch)) {
      return this;
    }
    String experiment = active.get(hostId).experimentId();
    int left = held(experiment) - 1;
    PersistentMap<String, Integer> counts = (PersistentMap<String, Integer>) heldBy;
    return new LeaseBook(lastEpoch, ((PersistentMap<String, Lease>) active).without(hostId),
        left == 0 ? counts.without(experiment) : counts.with(experiment, left));
  }
}
