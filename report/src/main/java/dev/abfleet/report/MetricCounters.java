package dev.abfleet.report;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the guest kernel counted during one metric's measured iterations of a boot.
 *
 * @param work what those iterations did, in {@code workUnit} ("ops" or "MiB"); 0 = unknown
 * @param interrupts /proc/interrupts rows summed over CPUs ("RES", "virtio1-requests", ...)
 * @param contextSwitches /proc/stat ctxt delta; -1 = unknown
 * @param interruptsTotal /proc/stat intr delta; -1 = unknown
 * @param interruptsPerCpu the same rows per CPU, CPU0 first; empty = not reported (older
 *     harness or event)
 * @param softirqsPerCpu /proc/softirqs rows that moved ("SCHED", "RCU"), per CPU; empty = not
 *     reported
 * @param wakeupsPerCpu /proc/schedstat ttwu_count delta per CPU; empty = not reported (no
 *     schedstat in the guest kernel)
 * @param threadRates each harness thread's rate over the measured iterations, in the metric's
 *     unit; empty = not reported
 */
public record MetricCounters(String metric, double work, String workUnit,
    Map<String, Long> interrupts, long contextSwitches, long interruptsTotal,
    Map<String, List<Long>> interruptsPerCpu, Map<String, List<Long>> softirqsPerCpu,
    List<Long> wakeupsPerCpu, List<Double> threadRates) {
  public MetricCounters {
    workUnit = workUnit == null ? "" : workUnit;
    interrupts = interrupts == null ? Map.of()
        : java.util.Collections.unmodifiableMap(new TreeMap<>(interrupts));
    interruptsPerCpu = PerCpu.rows(interruptsPerCpu);
    softirqsPerCpu = PerCpu.rows(softirqsPerCpu);
    wakeupsPerCpu = wakeupsPerCpu == null ? List.of() : List.copyOf(wakeupsPerCpu);
    threadRates = threadRates == null ? List.of() : List.copyOf(threadRates);
  }

  /** Without per-CPU detail or thread rates. */
  public MetricCounters(String metric, double work, String workUnit, Map<String, Long> interrupts,
      long contextSwitches, long interruptsTotal) {
    this(metric, work, workUnit, interrupts, contextSwitches, interruptsTotal, null, null, null, null);
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
