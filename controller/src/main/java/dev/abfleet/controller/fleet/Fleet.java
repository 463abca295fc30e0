package dev.abfleet.controller.fleet;

import dev.abfleet.controller.collection.PersistentMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Hosts the scheduler has heard of since it started (offline ones stay known) and who holds their streams now. Not persisted: after a
 * controller restart it is rebuilt from worker hellos.
 */
public record Fleet(Map<String, Host> hosts) {

  /** A known host; {@code session} is null while it is offline. */
  public record Host(HostCapabilities capabilities, ActorRef<SessionMessage> session) {
    public boolean online() {
      return session != null;
    }
  }

  /** {@code hosts} is persistent: a connect or disconnect costs O(1), not a copy of the fleet. */
  public Fleet {
    hosts = PersistentMap.of(hosts);
  }

  public static Fleet empty() {
    return new Fleet(Map.of());
  }

  public Optional<Host> host(String hostId) {
    return Optional.ofNullable(hosts.get(hostId));
  }

  public Fleet connected(HostCapabilities capabilities, ActorRef<SessionMessage> session) {
    return new Fleet(persistent().with(capabilities.hostId(), new Host(capabilities, session)));
  }

  /** Marks the host offline if {@code session} still holds it (a replaced session is ignored). */
  public Fleet disconnected(String hostId, ActorRef<SessionMessage> session) {
    Host host = hosts.get(hostId);
    if (host == null || !session.equals(host.session())) {
      return this;
    }
    return new Fleet(persistent().with(hostId, new Host(host.capabilities(), null)));
  }

  private PersistentMap<String, Host> persistent() {
    return (PersistentMap<String, Host>) hosts;
  }

  /** Online hosts without a lease, by host id. */
  public Map<String, HostCapabilities> idle(LeaseBook leases) {
    return idle(leases, HostMarks.none());
  }

  /** Online hosts without a lease that are neither draining nor quarantined, by host id. */
  public Map<String, HostCapabilities> idle(LeaseBook leases, HostMarks marks) {
    Map<String, HostCapabilities> idle = new TreeMap<>();
    hosts.forEach(
        (id, host) -> {
          if (host.online() && !leases.isLeased(id) && marks.usable(id)) {
            idle.put(id, host.capabilities());
          }
        });
    return idle;
  }
}
