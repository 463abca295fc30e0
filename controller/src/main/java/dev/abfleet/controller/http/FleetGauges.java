package dev.abfleet.controller.http;

import java.util.Map;
import java.util.TreeMap;

/**
 * The scheduler's view of the fleet as {@code /metrics} shows it.
 *
 * @param hostsByState hosts by lower-case state; every state the scheduler has, 0 included, so
 *     a series does not vanish when its last host leaves the state
 * @param leases hosts leased to an experiment
 * @param queueByPriority experiments waiting for a host, by priority (every priority, 0 included)
 * @param ageSeconds how old the view is; -1 = the scheduler did not answer (values are then 0)
 */
public record FleetGauges(Map<String, Integer> hostsByState, int leases,
    Map<String, Integer> queueByPriority, double ageSeconds) {
  /** Before the first answer, or when the scheduler did not answer. */
  public static final FleetGauges UNKNOWN = new FleetGauges(Map.of(), 0, Map.of(), -1);

  public FleetGauges {
    hostsByState = new TreeMap<>(hostsByState);
    queueByPriority = new TreeMap<>(queueByPriority);
  }
}
