package dev.abfleet.controller.schedule;

import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.fleet.HostSelector;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * An experiment asking for hosts.
 *
 * @param wanting false after the experiment answered NoBlockNeeded, until it asks again
 */
public record Demand(
    String experimentId,
    HostSelector selector,
    String priority,
    ActorRef<ExperimentEntity.Command> experiment,
    boolean wanting) {

  /** Lower ranks are served first: pr, then adhoc, then nightly. */
  public int rank() {
    return switch (priority) {
      case "pr" -> 0;
      case "nightly" -> 2;
      default -> 1;
    };
  }
}
