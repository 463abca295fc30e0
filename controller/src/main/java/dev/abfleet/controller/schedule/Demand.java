package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.HostSelector;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * An experiment asking for hosts.
 *
 * @param wanting false after the experiment answered NoBlockNeeded, until it asks again
 * @param declined hosts the experiment turned down because its open pairs failed there (INFRA)
 *     and another host matches; forgotten when it asks again or the fleet changes
 * @param openPairs pairs the experiment still needs (not completed): it never holds more
 *     leases than that, so surplus hosts go to other experiments at once; 0 = unknown (no cap)
 */
public record Demand(
    String experimentId,
    HostSelector selector,
    String priority,
    ActorRef<LeaseHolder.Message> experiment,
    boolean wanting,
    Set<String> declined,
    int openPairs) {

  public Demand {
    declined = declined == null ? Set.of() : Set.copyOf(declined);
  }

  /** A demand that declined no host and has no cap. */
  public Demand(String experimentId, HostSelector selector, String priority,
      ActorRef<LeaseHolder.Message> experiment, boolean wanting) {
    this(experimentId, selector, priority, experiment, wanting, Set.of(), 0);
  }

  public Demand withWanting(boolean wants) {
    return new Demand(experimentId, selector, priority, experiment, wants, declined, openPairs);
  }

  public Demand withDeclined(Set<String> hosts) {
    return new Demand(experimentId, selector, priority, experiment, wanting, hosts, openPairs);
  }

  /** True when the experiment can use one more lease beside the {@code held} it has. */
  public boolean canUseAnother(long held) {
    return openPairs <= 0 || held < openPairs;
  }

  /** Lower ranks are served first: pr, then adhoc, then nightly. */
  public int rank() {
    return switch (priority) {
      case "pr" -> 0;
      case "nightly" -> 2;
      default -> 1;
    };
  }
}
