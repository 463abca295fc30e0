package dev.abfleet.controller.fleet;

import dev.abfleet.controller.CborSerializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which hosts one ListHosts answer carries: those after host id {@code after} (exclusive; empty
 * = from the first), in host id order, at most {@code limit} of them ({@link #EVERY} = no
 * limit, 0 = none: only the fleet's counts).
 *
 * <p>Paging is what keeps a listing cheap at thousands of hosts: views, heartbeat ages and
 * messages are built for one page, while the counts cover the whole fleet.
 */
public record HostPage(String after, int limit) implements CborSerializable {
  public static final int EVERY = -1;
  public static final HostPage ALL = new HostPage("", EVERY);
  public static final HostPage COUNTS = new HostPage("", 0);

  public HostPage {
    after = after == null ? "" : after;
    if (limit < EVERY) {
      throw new IllegalArgumentException("host page limit " + limit + ": expected -1 (every host) or more");
    }
  }

  /**
   * The fleet's hosts by state, and how many have an open worker stream.
   *
   * @param leases hosts holding a lease (whatever their state: a draining host may still hold one)
   * @param byState every state's wire name, 0 included, in {@link HostView.State} order
   */
  public record Counts(int total, int connected, int leases, Map<String, Integer> byState)
      implements CborSerializable {
    public Counts {
      byState = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byState));
    }
  }

  /**
   * One answer.
   *
   * @param next the last host id of this page when more follow; empty = this was the last page
   */
  public record Listing(List<HostView> hosts, String next, Counts counts) implements CborSerializable {
    public Listing {
      hosts = List.copyOf(hosts);
    }
  }

  /**
   * This page of {@code fleet}: the whole fleet's states are counted (cheap per host), views are
   * made for the page's hosts only.
   *
   * @param state the state of one host
   * @param leased whether one host holds a lease
   * @param view the view of one host
   */
  public Listing of(Fleet fleet, Function<Fleet.Host, HostView.State> state, Predicate<String> leased,
      Function<Fleet.Host, HostView> view) {
    Map<String, Integer> byState = new LinkedHashMap<>();
    for (HostView.State s : HostView.State.values()) {
      byState.put(s.wire(), 0);
    }
    int connected = 0;
    int leases = 0;
    List<String> ids = new ArrayList<>(fleet.hosts().size());
    Map<String, Fleet.Host> hosts = fleet.hosts();
    for (Map.Entry<String, Fleet.Host> e : hosts.entrySet()) {
      byState.merge(state.apply(e.getValue()).wire(), 1, Integer::sum);
      if (e.getValue().online()) {
        connected++;
      }
      if (leased.test(e.getKey())) {
        leases++;
      }
      if (limit != 0 && e.getKey().compareTo(after) > 0) {
        ids.add(e.getKey());
      }
    }
    String[] sorted = ids.toArray(String[]::new);
    Arrays.sort(sorted);
    int n = limit == EVERY ? sorted.length : Math.min(limit, sorted.length);
    List<HostView> page = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      page.add(view.apply(hosts.get(sorted[i])));
    }
    String next = n < sorted.length && n > 0 ? sorted[n - 1] : "";
    return new Listing(page, next, new Counts(hosts.size(), connected, leases, byState));
  }
}
