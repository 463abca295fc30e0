package dev.abfleet.report;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the guest kernel counted during one metric's measured iterations of a boot.
 *
 * @param work what those iterations did, in {@code workUnit} ("ops" or "MiB"); 0 = unknown
 * @param interrupts /proc/interrupts rows summed over CPUs ("RES", "virtio1-requests", ...)
 * @param contextSwitches /proc/stat ctxt delta; -1 = unknown
 * @param interruptsTotal /proc/stat intr delta; -1 = unknown
 */
public record MetricCounters(String metric, double work, String workUnit,
    Map<String, Long> interrupts, long contextSwitches, long interruptsTotal) {
  public MetricCounters {
    workUnit = workUnit == null ? "" : workUnit;
    interrupts = interrupts == null ? Map.of()
        : java.util.Collections.unmodifiableMap(new TreeMap<>(interrupts));
  }

  /** The counters by row name, context switches as "ctxt"; absent = not counted. */
  public Map<String, Long> rows() {
    Map<String, Long> rows = new TreeMap<>(interrupts);
    if (contextSwitches >= 0) {
      rows.put(CONTEXT_SWITCHES, contextSwitches);
    }
    return rows;
  }

  /** The row name context switches go by. */
  public static final String CONTEXT_SWITCHES = "ctxt";
}
