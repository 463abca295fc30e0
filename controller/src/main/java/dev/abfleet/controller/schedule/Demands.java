package dev.abfleet.controller.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Experiments waiting for hosts, in arrival order, and who got the last lease (the round-robin
 * position). Not persisted: experiments ask again after a restart.
 */
public record Demands(List<Demand> queue, String lastServed) {
  public Demands {
    queue = List.copyOf(queue);
    lastServed = lastServed == null ? "" : lastServed;
  }

  public static Demands empty() {
    return new Demands(List.of(), "");
  }

  public Optional<Demand> find(String experimentId) {
    return queue.stream().filter(d -> d.experimentId().equals(experimentId)).findFirst();
  }

  /** Adds the demand or refreshes it in place (keeping its queue position); it wants hosts. */
  public Demands wanting(Demand demand) {
    List<Demand> next = new ArrayList<>(queue);
    int at = indexOf(demand.experimentId());
    Demand wanting = demand.withWanting(true).withDeclined(java.util.Set.of());
    if (at < 0) {
      next.add(wanting);
    } else {
      next.set(at, wanting);
    }
    return new Demands(next, lastServed);
  }

  /** The experiment has nothing to plan right now; skip it until it asks again. */
  public Demands satisfied(String experimentId) {
    int at = indexOf(experimentId);
    if (at < 0) {
      return this;
    }
    List<Demand> next = new ArrayList<>(queue);
    Demand d = next.get(at);
    next.set(at, d.withWanting(false));
    return new Demands(next, lastServed);
  }

  /** The experiment keeps wanting hosts, but not this one (until the fleet changes). */
  public Demands declined(String experimentId, String hostId) {
    int at = indexOf(experimentId);
    if (at < 0) {
      return this;
    }
    List<Demand> next = new ArrayList<>(queue);
    Demand d = next.get(at);
    java.util.Set<String> declined = new java.util.HashSet<>(d.declined());
    declined.add(hostId);
    next.set(at, d.withDeclined(declined));
    return new Demands(next, lastServed);
  }

  /** Forgets every declined host: a host came, went or changed state. */
  public Demands withoutDeclines() {
    return new Demands(queue.stream().map(d -> d.withDeclined(java.util.Set.of())).toList(), lastServed);
  }

  public Demands without(String experimentId) {
    return new Demands(
        queue.stream().filter(d -> !d.experimentId().equals(experimentId)).toList(), lastServed);
  }

  public Demands served(String experimentId) {
    return new Demands(queue, experimentId);
  }

  /** Wanting demands in service order: priority first, round robin after the last served. */
  public List<Demand> serviceOrder() {
    int start = indexOf(lastServed) + 1;
    List<Demand> rotated = new ArrayList<>();
    for (int i = 0; i < queue.size(); i++) {
      Demand d = queue.get((start + i) % queue.size());
      if (d.wanting()) {
        rotated.add(d);
      }
    }
    rotated.sort(java.util.Comparator.comparingInt(Demand::rank));
    return rotated;
  }

  private int indexOf(String experimentId) {
    for (int i = 0; i < queue.size(); i++) {
      if (queue.get(i).experimentId().equals(experimentId)) {
        return i;
      }
    }
    return -1;
  }
}
