package dev.abfleet.controller.schedule;

import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.fleet.HostSelector;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * An experiment asking for hosts.
 *
 * @param wanting false after the experiment answered NoBlockNeeded, until it asks again
 * @param declined hosts the experiment turned down because its open pairs failed there (INFRA)
 *     and another host matches; forgotten when it asks again or the fleet changes
 */
public record Demand(
    String experimentId,
    HostSelector selector,
    String priority,
    ActorRef<ExperimentEntity.Command> experiment,
    boolean wanting,
    Set<String> declined) {

  public Demand {
    declined = declined == null ? Set.of() : Set.copyOf(declined);
  }

  /** A demand that declined no host. */
  public Demand(String experimentId, HostSelector selector, String priority,
      ActorRef<ExperimentEntity.Command> experiment, boolean wanting) {
    this(experimentId, selector, priority, experiment, wanting, Set.of());
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
