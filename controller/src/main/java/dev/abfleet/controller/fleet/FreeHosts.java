package dev.abfleet.controller.fleet;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The hosts that may take a lease now (online, not leased, neither draining nor quarantined),
 * grouped by host class: hosts whose capabilities differ only in their id match every selector
 * without explicit hosts alike, so a demand is matched once per class instead of once per host.
 * Kept up to date by the scheduler ({@link #refresh}) on each connect, disconnect and event, so
 * finding a host for a demand costs O(classes + log n), not a scan of the fleet. Mutable,
 * confined to the scheduler actor.
 */
public final class FreeHosts {
  // Class (capabilities with the host id blanked) -> free host ids of that class, sorted.
  private final Map<HostCapabilities, NavigableSet<String>> byClass = new HashMap<>();
  private final Map<String, HostCapabilities> free = new HashMap<>();

  /** The free hosts of {@code fleet}, built in one pass (O(n)). */
  public static FreeHosts of(Fleet fleet, LeaseBook leases, HostMarks marks) {
    FreeHosts hosts = new FreeHosts();
    fleet.hosts().keySet().forEach(id -> hosts.refresh(id, fleet, leases, marks));
    return hosts;
  }

  /** Puts the host in or takes it out of the index after anything about it changed. */
  public void refresh(String hostId, Fleet fleet, LeaseBook leases, HostMarks marks) {
    Fleet.Host host = fleet.hosts().get(hostId);
    boolean isFree = host != null && host.online() && !leases.isLeased(hostId) && marks.usable(hostId);
    HostCapabilities was = free.get(hostId);
    if (was != null && (!isFree || !was.equals(host.capabilities()))) {
      remove(hostId);
    }
    if (isFree && !free.containsKey(hostId)) {
      free.put(hostId, host.capabilities());
      byClass.computeIfAbsent(classOf(host.capabilities()), c -> new TreeSet<>()).add(hostId);
    }
  }

  /** Takes the host out (it was just leased). */
  public void remove(String hostId) {
    HostCapabilities capabilities = free.remove(hostId);
    if (capabilities == null) {
      return;
    }
    HostCapabilities cls = classOf(capabilities);
    NavigableSet<String> ids = byClass.get(cls);
    ids.remove(hostId);
    if (ids.isEmpty()) {
      byClass.remove(cls);
    }
  }

  public boolean isEmpty() {
    return free.isEmpty();
  }

  public int size() {
    return free.size();
  }

  public boolean contains(String hostId) {
    return free.containsKey(hostId);
  }

  /**
   * The lowest free host id that {@code selector} matches and {@code declined} does not hold,
   * or null.
   */
  public String firstMatch(HostSelector selector, Set<String> declined) {
    if (!selector.hosts().isEmpty()) {
      // Explicit hosts: few, and their ids decide the match, so look at them one by one.
      return selector.hosts().stream()
          .filter(id -> free.containsKey(id) && !declined.contains(id))
          .filter(id -> selector.matches(free.get(id)))
          .sorted().findFirst().orElse(null);
    }
    String best = null;
    for (NavigableSet<String> ids : byClass.values()) {
      // A class matches as its first host does: with no explicit hosts, the id plays no part.
      if (!selector.matches(free.get(ids.first()))) {
        continue;
      }
      String id = first(ids, declined::contains);
      if (id != null && (best == null || id.compareTo(best) < 0)) {
        best = id;
      }
    }
    return best;
  }

  private static String first(NavigableSet<String> ids, Predicate<String> skip) {
    for (String id : ids) {
      if (!skip.test(id)) {
        return id;
      }
    }
    return null;
  }

  /** The capabilities without the host id: equal for hosts that match every selector alike. */
  private static HostCapabilities classOf(HostCapabilities c) {
    return new HostCapabilities("", c.arch(), c.cpus(), c.memoryMib(), c.labels(), c.hypervisors(),
        c.cpuModel(), c.hostKernel(), c.agentVersion(), c.hypervisorVersions(), c.volumeTransports(),
        c.guestArches(), c.unpinnable(), c.buildArches(), c.toolchain());
  }
}
