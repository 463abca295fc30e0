package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.Fleet;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostMarks;
import dev.abfleet.controller.fleet.Lease;
import dev.abfleet.controller.fleet.LeaseBook;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The scheduler's decisions, free of actors so they can be tested directly. */
public final class Scheduling {
  private Scheduling() {}

  /** New leases to grant and the demand queue after granting them. */
  public record Grants(List<Lease> leases, Demands demands) {}

  /**
   * Leases every idle online host that a wanting experiment can use: one host at a time to the
   * next experiment in service order (priority, then round robin), each host at most once.
   */
  public static Grants grant(Fleet fleet, LeaseBook leases, Demands demands) {
    return grant(fleet, leases, HostMarks.none(), demands);
  }

  /** As {@link #grant(Fleet, LeaseBook, Demands)}; draining and quarantined hosts get no lease. */
  public static Grants grant(Fleet fleet, LeaseBook leases, HostMarks marks, Demands demands) {
    Map<String, HostCapabilities> idle = fleet.idle(leases, marks);
    List<Lease> granted = new ArrayList<>();
    Demands current = demands;
    boolean progress = true;
    while (progress && !idle.isEmpty()) {
      progress = false;
      for (Demand demand : current.serviceOrder()) {
        String host = firstMatch(idle, demand);
        if (host != null) {
          granted.add(new Lease(host, leases.nextEpoch(host), demand.experimentId()));
          idle.remove(host);
          current = current.served(demand.experimentId());
          progress = true;
          break;
        }
      }
    }
    return new Grants(granted, current);
  }

  private static String firstMatch(Map<String, HostCapabilities> idle, Demand demand) {
    return idle.values().stream()
        .filter(demand.selector()::matches)
        .map(HostCapabilities::hostId)
        .findFirst()
        .orElse(null);
  }
}
