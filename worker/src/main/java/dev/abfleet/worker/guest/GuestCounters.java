package dev.abfleet.worker.guest;

import java.util.Map;
import java.util.TreeMap;

/**
 * A telemetry event of the harness: what the guest kernel counted during one metric's measured
 * iterations (their timed parts).
 *
 * @param work what those iterations did, in {@code workUnit} ("ops" or "MiB"); 0 = unknown
 * @param interrupts /proc/interrupts rows summed over CPUs: named rows ("RES", "IPI0") by name,
 *     numbered IRQs by device ("virtio1-requests"); rows that did not move are absent
 * @param contextSwitches /proc/stat ctxt delta; -1 = unknown
 * @param interruptsTotal /proc/stat intr delta; -1 = unknown
 */
public record GuestCounters(String metric, double work, String workUnit,
    Map<String, Long> interrupts, long contextSwitches, long interruptsTotal) {
  public GuestCounters {
    interrupts = java.util.Collections.unmodifiableMap(new TreeMap<>(interrupts));
  }
}
