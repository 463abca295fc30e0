package dev.abfleet.controller.fleet;

import java.util.HashMap;
import java.util.Map;

/**
 * INFRA failures in a row per host (part of the scheduler's persisted state). Any boot that
 * reached a verdict about its arm (ok, boot failed, timeout, harness failed) ends a streak.
 *
 * @param streaks host id -> consecutive INFRA failures; absent = 0
 */
public record HostHealth(Map<String, Integer> streaks) {
  public HostHealth {
    streaks = Map.copyOf(streaks);
  }

  public static HostHealth healthy() {
    return new HostHealth(Map.of());
  }

  public int streak(String hostId) {
    return streaks.getOrDefault(hostId, 0);
  }

  public HostHealth failed(String hostId) {
    Map<String, Integer> next = new HashMap<>(streaks);
    next.merge(hostId, 1, Integer::sum);
    return new HostHealth(next);
  }

  public HostHealth cleared(String hostId) {
    if (!streaks.containsKey(hostId)) {
      return this;
    }
    Map<String, Integer> next = new HashMap<>(streaks);
    next.remove(hostId);
    return new HostHealth(next);
  }
}
