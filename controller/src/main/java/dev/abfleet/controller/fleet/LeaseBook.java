package dev.abfleet.controller.fleet;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.collection.PersistentMap;
import java.util.Map;
import java.util.Optional;

/**
 * The durable facts of the fleet: the last epoch handed out per host and the leases in force.
 * Epochs only grow, across restarts too, so a result carrying an old epoch is always stale
 * ({@link Fence} has the rules).
 */
public record LeaseBook(Map<String, Long> lastEpoch, Map<String, Lease> active)
    implements CborSerializable {
  /** Both maps are persistent: a lease or a release costs O(1), not a copy of every lease. */
  public LeaseBook {
    lastEpoch = PersistentMap.of(lastEpoch);
    active = PersistentMap.of(active);
  }

  public static LeaseBook empty() {
    return new LeaseBook(Map.of(), Map.of());
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
        ((PersistentMap<String, Lease>) active).with(lease.hostId(), lease));
  }

  /** Releases the lease if (host, epoch) is current; otherwise nothing changes. */
  public LeaseBook released(String hostId, long epoch) {
    if (!isCurrent(hostId, epoch)) {
      return this;
    }
    return new LeaseBook(lastEpoch, ((PersistentMap<String, Lease>) active).without(hostId));
  }
}
