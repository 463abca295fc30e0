package dev.abfleet.controller.experiment;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the guest kernel counted during one metric's measured iterations (their timed parts).
 *
 * @param work what those iterations did, in {@code workUnit}; 0 = unknown
 * @param workUnit "ops" or "MiB"
 * @param interrupts /proc/interrupts rows summed over CPUs ("RES", "virtio1-requests", ...)
 * @param contextSwitches /proc/stat ctxt delta; -1 = unknown
 * @param interruptsTotal /proc/stat intr delta; -1 = unknown
 */
public record GuestCounters(String metric, double work, String workUnit,
    Map<String, Long> interrupts, long contextSwitches, long interruptsTotal) {
  public GuestCounters {
    workUnit = workUnit == null ? "" : workUnit;
    interrupts = interrupts == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(interrupts));
  }
}
