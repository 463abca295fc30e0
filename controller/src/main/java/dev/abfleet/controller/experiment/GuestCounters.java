package dev.abfleet.controller.experiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.abfleet.report.PerCpu;
import java.util.List;
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
 * @param interruptsPerCpu the same rows per CPU, CPU0 first; empty = not reported (older
 *     harness or event)
 * @param softirqsPerCpu /proc/softirqs rows that moved ("SCHED", "RCU"), per CPU; empty = not
 *     reported
 * @param wakeupsPerCpu /proc/schedstat ttwu_count delta per CPU; empty = not reported (no
 *     schedstat in the guest kernel)
 * @param threadRates each harness thread's rate over the measured iterations, in the metric's
 *     unit; empty = not reported
 */
public record GuestCounters(String metric, double work, String workUnit,
    Map<String, Long> interrupts, long contextSwitches, long interruptsTotal,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, List<Long>> interruptsPerCpu,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, List<Long>> softirqsPerCpu,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Long> wakeupsPerCpu,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Double> threadRates) {
  public GuestCounters {
    workUnit = workUnit == null ? "" : workUnit;
    interrupts = interrupts == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(interrupts));
    interruptsPerCpu = PerCpu.rows(interruptsPerCpu);
    softirqsPerCpu = PerCpu.rows(softirqsPerCpu);
    wakeupsPerCpu = wakeupsPerCpu == null ? List.of() : List.copyOf(wakeupsPerCpu);
    threadRates = threadRates == null ? List.of() : List.copyOf(threadRates);
  }

  /** Without per-CPU detail or thread rates. */
  public GuestCounters(String metric, double work, String workUnit, Map<String, Long> interrupts,
      long contextSwitches, long interruptsTotal) {
    this(metric, work, workUnit, interrupts, contextSwitches, interruptsTotal, null, null, null, null);
  }
}
