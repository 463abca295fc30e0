package dev.abfleet.worker.guest;

import java.util.Collections;
import java.util.List;
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
 * @param interruptsPerCpu the same rows, one count per CPU (CPU0 first); empty = not reported
 * @param softirqsPerCpu /proc/softirqs rows that moved ("SCHED", "RCU"), one count per CPU
 * @param wakeupsPerCpu /proc/schedstat ttwu_count delta per CPU; empty = no schedstat
 * @param threadRates each harness thread's rate over the measured iterations, in the metric's
 *     unit (ops/s, MiB/s); empty = not reported
 */
public record GuestCounters(String metric, double work, String workUnit,
    Map<String, Long> interrupts, long contextSwitches, long interruptsTotal,
    Map<String, List<Long>> interruptsPerCpu, Map<String, List<Long>> softirqsPerCpu,
    List<Long> wakeupsPerCpu, List<Double> threadRates) {
  public GuestCounters {
    interrupts = Collections.unmodifiableMap(new TreeMap<>(interrupts));
    interruptsPerCpu = perCpu(interruptsPerCpu);
    softirqsPerCpu = perCpu(softirqsPerCpu);
    wakeupsPerCpu = List.copyOf(wakeupsPerCpu);
    threadRates = List.copyOf(threadRates);
  }

  /** Counters without per-CPU detail or thread rates (a harness that reports none). */
  public GuestCounters(String metric, double work, String workUnit, Map<String, Long> interrupts,
      long contextSwitches, long interruptsTotal) {
    this(metric, work, workUnit, interrupts, contextSwitches, interruptsTotal, Map.of(), Map.of(),
        List.of(), List.of());
  }

  private static Map<String, List<Long>> perCpu(Map<String, List<Long>> rows) {
    Map<String, List<Long>> copy = new TreeMap<>();
    rows.forEach((name, counts) -> copy.put(name, List.copyOf(counts)));
    return Collections.unmodifiableMap(copy);
  }
}
