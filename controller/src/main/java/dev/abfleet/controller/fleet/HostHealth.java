package dev.abfleet.controller.fleet;

import dev.abfleet.controller.collection.PersistentMap;
import java.util.Map;

/**
 * INFRA failures in a row per host (part of the scheduler's persisted state). Any boot that
 * reached a verdict about its arm (ok, boot failed, timeout, harness failed) ends a streak.
 *
 * @param streaks host id -> consecutive INFRA failures; absent = 0
 */
public record HostHealth(Map<String, Integer> streaks) {
  public HostHealth {
    streaks = PersistentMap.of(streaks);
  }

  public static HostHealth healthy() {
    return new HostHealth(Map.of());
  }

  public int streak(String hostId) {
    return streaks.getOrDefault(hostId, 0);
  }

  public HostHealth failed(String hostId) {
    return new HostHealth(((PersistentMap<String, Integer>) streaks).with(hostId, streak(hostId) + 1));
  }

  public HostHealth cleared(String hostId) {
    if (!streaks.containsKey(hostId)) {
      return this;
    }
    return new HostHealth(((PersistentMap<String, Integer>) streaks).without(hostId));
  }
}
