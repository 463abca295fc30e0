package dev.abfleet.report;

import dev.abfleet.stats.Medians;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How busy the hosts were during one arm's boots: the CPU pressure (PSI "some" avg10 at each
 * boot's end) and how many boots the workers marked interfered. Reported beside the verdict,
 * never part of it: a busy host explains noise, it does not decide.
 *
 * @param arm the arm's name
 * @param boots boots of the arm with CPU pressure measured
 * @param medianCpuSome median of their CPU some avg10, percent
 * @param maxCpuSome the largest, percent
 * @param interfered boots of the arm marked interfered
 * @param medianOtherCpuPct median over the boots of other processes' share of the host's CPU time
 *     (not the worker's, not its VMs'), percent; NaN when no boot measured it
 */
public record HostSummary(String arm, int boots, double medianCpuSome, double maxCpuSome, int interfered,
    double medianOtherCpuPct) {

  /**
   * One summary per arm with a boot whose host pressure was measured, the baseline first, then as
   * compared, then any other arm; empty when no boot has pressure (simulated hosts, boots
   * recorded before hosts were sampled, {@code abfleet analyze}).
   */
  public static List<HostSummary> of(Report r) {
    if (r.run() == null) {
      return List.of();
    }
    Map<String, List<BootHost>> byArm = new LinkedHashMap<>();
    byArm.put(r.design().baseline(), new ArrayList<>());
    r.design().compared().forEach(arm -> byArm.put(arm, new ArrayList<>()));
    for (BootRecord b : r.run().boots()) {
      BootHost h = b.run() == null ? null : b.run().host();
      if (h != null && h.pressure().hasPsi()) {
        byArm.computeIfAbsent(b.arm(), k -> new ArrayList<>()).add(h);
      }
    }
    List<HostSummary> out = new ArrayList<>();
    byArm.forEach((arm, hosts) -> {
      if (!hosts.isEmpty()) {
        double[] cpu = hosts.stream().mapToDouble(h -> h.pressure().cpuSomeAvg10()).toArray();
        double[] others = hosts.stream().mapToDouble(h -> otherCpuPct(h.pressure()))
            .filter(v -> !Double.isNaN(v)).toArray();
        out.add(new HostSummary(arm, hosts.size(), Medians.of(cpu),
            Arrays.stream(cpu).max().orElse(Double.NaN),
            (int) hosts.stream().filter(BootHost::interfered).count(),
            others.length == 0 ? Double.NaN : Medians.of(others)));
      }
    });
    return out;
  }

  /** Other processes' share of the host's CPU time over the window, percent; NaN = not measured. */
  static double otherCpuPct(BootHost.Pressure p) {
    long others = p.otherCpuMs();
    return others < 0 || p.hostCpus() <= 0 ? Double.NaN : 100.0 * others / (p.windowMs() * (double) p.hostCpus());
  }

  /** The report lines, one per arm with pressure measured; empty when no boot has any. */
  public static List<String> lines(Report r) {
    return of(r).stream().map(HostSummary::line).toList();
  }

  /**
   * "host: arm b: cpu pressure median 0.4% (max 37.2%), other processes median 1.2% of cpu,
   * 3 of 12 boots interfered" (the other processes' part only where measured).
   */
  public String line() {
    String others = Double.isNaN(medianOtherCpuPct) ? ""
        : String.format(Locale.ROOT, ", other processes median %.1f%% of cpu", medianOtherCpuPct);
    return String.format(Locale.ROOT, "host: arm %s: cpu pressure median %.1f%% (max %.1f%%)%s, %d of %d boots interfered",
        arm, medianCpuSome, maxCpuSome, others, interfered, boots);
  }
}
