package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.Fleet;
import dev.abfleet.controller.fleet.FreeHosts;
import dev.abfleet.controller.fleet.HostMarks;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.fleet.Lease;
import dev.abfleet.controller.fleet.LeaseBook;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The scheduler's decisions, free of actors so they can be tested directly. */
public final class Scheduling {
  private Scheduling() {}

  /** New leases to grant and the demand queue after granting them. */
  public record Grants(List<Lease> leases, Demands demands) {}

  /**
   * Leases every idle online host that a wanting experiment can use: one host at a time to the
   * next experiment in service order (priority, then round robin), each host at most once, and
   * never more leases to an experiment than the pairs it still needs.
   */
  public static Grants grant(Fleet fleet, LeaseBook leases, Demands demands) {
    return grant(fleet, leases, HostMarks.none(), demands);
  }

  /** As {@link #grant(Fleet, LeaseBook, Demands)}; draining and quarantined hosts get no lease. */
  public static Grants grant(Fleet fleet, LeaseBook leases, HostMarks marks, Demands demands) {
    return grant(FreeHosts.of(fleet, leases, marks), leases, demands);
  }

  /**
   * As above, from the scheduler's index of free hosts; the hosts granted are taken out of
   * {@code free}. Costs O(leases) once, then O(host classes + log n) per demand looked at.
   */
  public static Grants grant(FreeHosts free, LeaseBook leases, Demands demands) {
    List<Demand> order = demands.serviceOrder();
    if (free.isEmpty() || order.isEmpty()) {
      return new Grants(List.of(), demands);
    }
    List<Lease> granted = new ArrayList<>();
    Map<String, Long> held = heldByExperiment(leases);
    Demands current = demands;
    boolean progress = true;
    while (progress && !free.isEmpty()) {
      progress = false;
      for (Demand demand : order) {
        if (!demand.canUseAnother(held.getOrDefault(demand.experimentId(), 0L))) {
          continue;
        }
        String host = free.firstMatch(demand.selector(), demand.declined());
        if (host != null) {
          granted.add(new Lease(host, leases.nextEpoch(host), demand.experimentId()));
          held.merge(demand.experimentId(), 1L, Long::sum);
          free.remove(host);
          current = current.served(demand.experimentId());
          order = current.serviceOrder();
          progress = true;
          break;
        }
      }
    }
    return new Grants(granted, current);
  }

  private static Map<String, Long> heldByExperiment(LeaseBook leases) {
    Map<String, Long> held = new HashMap<>();
    leases.heldBy().forEach((id, n) -> held.put(id, (long) n));
    return held;
  }

  /** A lease to stop at its next boot boundary so that {@code forExperiment} gets the host. */
  public record Preemption(Lease victim, String forExperiment) {}

  /**
   * Leases to preempt: each wanting experiment that holds no host and has no preemption under
   * way for it takes one host leased to a strictly lower priority (the lowest first), if the host
   * matches its selector and is neither draining nor quarantined. Further hosts come to it at
   * block boundaries, since it is served first. A host is never preempted twice.
   *
   * @param pending host id -> experiment a preemption already under way is for
   */
  public static List<Preemption> preemptions(Fleet fleet, LeaseBook leases, HostMarks marks,
      Demands demands, Map<String, String> pending) {
    return preemptions(fleet, leases, marks, demands, pending, Map.of());
  }

  /**
   * As above; among the lowest-priority leases the victim is the host whose boot in progress
   * began first (it ends soonest, so the waiting experiment starts soonest), then the lowest
   * host id.
   *
   * @param bootSince host id -> when its boot in progress began (ms since the epoch: the lease
   *     or the last finished boot); absent = unknown, taken as now
   */
  public static List<Preemption> preemptions(Fleet fleet, LeaseBook leases, HostMarks marks,
      Demands demands, Map<String, String> pending, Map<String, Long> bootSince) {
    Map<String, String> taken = new java.util.HashMap<>(pending);
    List<Preemption> out = new ArrayList<>();
    List<Demand> order = demands.serviceOrder();
    if (order.isEmpty()) {
      return out;
    }
    Map<String, Long> held = heldByExperiment(leases);
    // The lowest priority holding a host: a waiting experiment not above it preempts nobody,
    // which spares the scan of every lease when all experiments share a priority.
    int lowestHeld = held.keySet().stream().mapToInt(id -> rankOf(demands, id)).max().orElse(Integer.MIN_VALUE);
    for (Demand waiting : order) {
      boolean holdsHost = held.containsKey(waiting.experimentId());
      if (holdsHost || lowestHeld <= waiting.rank() || taken.containsValue(waiting.experimentId())) {
        continue;
      }
      leases.active().values().stream()
          .filter(l -> !taken.containsKey(l.hostId()) && marks.usable(l.hostId()))
          .filter(l -> fleet.host(l.hostId()).filter(Fleet.Host::online)
              .map(h -> waiting.selector().matches(h.capabilities())).orElse(false))
          .filter(l -> rankOf(demands, l.experimentId()) > waiting.rank())
          .max(java.util.Comparator.<Lease>comparingInt(l -> rankOf(demands, l.experimentId()))
              .thenComparing(l -> -bootSince.getOrDefault(l.hostId(), Long.MAX_VALUE))
              .thenComparing(Lease::hostId, java.util.Comparator.reverseOrder()))
          .ifPresent(victim -> {
            taken.put(victim.hostId(), waiting.experimentId());
            out.add(new Preemption(victim, waiting.experimentId()));
          });
    }
    return out;
  }

  /** The priority rank of the experiment holding a lease; an unknown one is never preempted. */
  private static int rankOf(Demands demands, String experimentId) {
    return demands.find(experimentId).map(Demand::rank).orElse(Integer.MIN_VALUE);
  }

  /**
   * Where each experiment stands in the line for hosts, in one pass: queue position 0 when it
   * holds a host or does not wait (finished, or every pair in flight); otherwise its 1-based
   * place among the waiting experiments that hold no host, in service order. Experiments absent
   * from the map neither wait nor hold a host.
   */
  public static Map<String, Scheduler.Standing> standings(LeaseBook leases, Demands demands) {
    Map<String, Integer> held = leases.heldBy();
    Map<String, Scheduler.Standing> out = new HashMap<>();
    held.forEach((id, n) -> out.put(id, new Scheduler.Standing(0, n)));
    int place = 0;
    for (Demand d : demands.serviceOrder()) {
      if (!held.containsKey(d.experimentId())) {
        out.put(d.experimentId(), new Scheduler.Standing(++place, 0));
      }
    }
    return Map.copyOf(out);
  }

  /** True when a usable online host other than {@code hostId} matches the selector. */
  public static boolean otherHostsMatch(Fleet fleet, HostMarks marks, HostSelector selector,
      String hostId) {
    return fleet.hosts().values().stream()
        .filter(h -> h.online() && !h.capabilities().hostId().equals(hostId))
        .filter(h -> marks.usable(h.capabilities().hostId()))
        .anyMatch(h -> selector.matches(h.capabilities()));
  }
}
