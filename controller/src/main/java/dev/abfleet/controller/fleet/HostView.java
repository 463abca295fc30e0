package dev.abfleet.controller.fleet;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One host as ListHosts shows it.
 *
 * @param leasedTo experiment holding the lease; empty = none
 * @param leaseEpoch epoch of that lease; 0 = none
 */
public record HostView(
    HostCapabilities capabilities, State state, String leasedTo, long leaseEpoch) {

  public enum State {
    IDLE,
    LEASED,
    OFFLINE;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Every known host, sorted by id. */
  public static List<HostView> list(Fleet fleet, LeaseBook leases) {
    Map<String, HostView> views = new TreeMap<>();
    fleet.hosts().forEach(
        (id, host) -> {
          var lease = leases.leaseOf(id);
          State state =
              !host.online() ? State.OFFLINE : lease.isPresent() ? State.LEASED : State.IDLE;
          views.put(
              id,
              new HostView(
                  host.capabilities(),
                  state,
                  lease.map(Lease::experimentId).orElse(""),
                  lease.map(Lease::epoch).orElse(0L)));
        });
    return List.copyOf(views.values());
  }
}
