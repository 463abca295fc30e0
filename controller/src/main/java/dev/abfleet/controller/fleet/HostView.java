package dev.abfleet.controller.fleet;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One host as ListHosts shows it.
 *
 * @param leasedTo experiment holding the lease; empty = none
 * @param leaseEpoch epoch of that lease; 0 = none
 * @param connected true while the worker's stream is open
 * @param stateReason why the host is quarantined; empty otherwise
 * @param infraFailures INFRA failures in a row; 0 = healthy
 * @param rejectedReports reports of the host refused since the scheduler started (in memory)
 * @param drainReason why an operator drained the host; empty = not drained or no reason given
 * @param noise the host's current paired noise (over the noise rule's newest window); none =
 *     no experiment has measured it yet, or a quarantine wiped it
 * @param interference the host's newest boots and how many were interfered (in memory)
 * @param noisyReason why the host is flagged noisy (often interfered); empty = not flagged
 */
public record HostView(
    HostCapabilities capabilities,
    State state,
    String leasedTo,
    long leaseEpoch,
    boolean connected,
    String stateReason,
    int infraFailures,
    long rejectedReports,
    String drainReason,
    NoiseHistory.Latest noise,
    HostInterference.Window interference,
    String noisyReason) {

  public HostView {
    noise = noise == null ? NoiseHistory.Latest.none() : noise;
    interference = interference == null ? HostInterference.Window.NONE : interference;
    noisyReason = noisyReason == null ? "" : noisyReason;
  }

  public HostView(HostCapabilities capabilities, State state, String leasedTo, long leaseEpoch,
      boolean connected, String stateReason, int infraFailures) {
    this(capabilities, state, leasedTo, leaseEpoch, connected, stateReason, infraFailures, 0, "",
        NoiseHistory.Latest.none(), HostInterference.Window.NONE, "");
  }

  /**
   * Operator and health states win over connection states: a quarantined or draining host
   * shows so whether it is connected or not.
   */
  public enum State {
    IDLE,
    LEASED,
    DRAINING,
    QUARANTINED,
    OFFLINE;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Every known host, sorted by id. */
  public static List<HostView> list(Fleet fleet, LeaseBook leases, HostMarks marks,
      HostHealth health) {
    return list(fleet, leases, marks, health, Map.of());
  }

  /** @param rejectedReports host id -> reports refused; absent = 0 */
  public static List<HostView> list(Fleet fleet, LeaseBook leases, HostMarks marks,
      HostHealth health, Map<String, Long> rejectedReports) {
    return list(fleet, leases, marks, health, rejectedReports, NoiseHistory.empty(), 1, null);
  }

  /**
   * @param rejectedReports host id -> reports refused; absent = 0
   * @param noise the hosts' paired noise histories
   * @param noiseWindow newest residuals the shown noise is the median of (the noise rule's recent)
   * @param interference the hosts' interfered boots; null = none known
   */
  public static List<HostView> list(Fleet fleet, LeaseBook leases, HostMarks marks,
      HostHealth health, Map<String, Long> rejectedReports, NoiseHistory noise, int noiseWindow,
      HostInterference interference) {
    Map<String, HostView> views = new TreeMap<>();
    fleet.hosts().forEach((id, host) -> views.put(id,
        of(host, leases, marks, health, rejectedReports.getOrDefault(id, 0L),
            noise.latest(id, noiseWindow), interference)));
    return List.copyOf(views.values());
  }

  /**
   * One page of the fleet's hosts with the whole fleet's counts; arguments as for
   * {@link #list(Fleet, LeaseBook, HostMarks, HostHealth, Map, NoiseHistory, int, HostInterference)}.
   */
  public static HostPage.Listing page(HostPage page, Fleet fleet, LeaseBook leases, HostMarks marks,
      HostHealth health, Map<String, Long> rejectedReports, NoiseHistory noise, int noiseWindow,
      HostInterference interference) {
    return page.of(fleet, host -> stateOf(host, leases, marks), id -> leases.leaseOf(id).isPresent(), host -> {
      String id = host.capabilities().hostId();
      return of(host, leases, marks, health, rejectedReports.getOrDefault(id, 0L), noise.latest(id, noiseWindow),
          interference);
    });
  }

  /** Operator and health states first, then connection and lease. */
  static State stateOf(Fleet.Host host, LeaseBook leases, HostMarks marks) {
    String id = host.capabilities().hostId();
    return marks.quarantine(id).isPresent() ? State.QUARANTINED
        : marks.isDraining(id) ? State.DRAINING
        : !host.online() ? State.OFFLINE
        : leases.leaseOf(id).isPresent() ? State.LEASED
        : State.IDLE;
  }

  public static HostView of(Fleet.Host host, LeaseBook leases, HostMarks marks, HostHealth health) {
    return of(host, leases, marks, health, 0);
  }

  public static HostView of(Fleet.Host host, LeaseBook leases, HostMarks marks, HostHealth health,
      long rejectedReports) {
    return of(host, leases, marks, health, rejectedReports, NoiseHistory.Latest.none(), null);
  }

  /** @param interference the hosts' interfered boots; null = none known */
  public static HostView of(Fleet.Host host, LeaseBook leases, HostMarks marks, HostHealth health,
      long rejectedReports, NoiseHistory.Latest noise, HostInterference interference) {
    String id = host.capabilities().hostId();
    var lease = leases.leaseOf(id);
    var quarantine = marks.quarantine(id);
    return new HostView(host.capabilities(), stateOf(host, leases, marks),
        lease.map(Lease::experimentId).orElse(""), lease.map(Lease::epoch).orElse(0L),
        host.online(), quarantine.map(HostMarks.Quarantine::reason).orElse(""),
        health.streak(id), rejectedReports, marks.drainReason(id), noise,
        interference == null ? HostInterference.Window.NONE : interference.window(id),
        interference == null ? "" : interference.noisy(id).orElse(""));
  }
}
