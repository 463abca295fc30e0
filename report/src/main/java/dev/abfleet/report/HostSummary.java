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
 * @param rerun of those, boots kept for the record only: their pair ran again (Boot.rerun)
 * @param kept of those, boots pooled into the verdict anyway
 * @param keptWhy why they were pooled: "re-run limit reached", "by policy", "no quiet-host
 *     policy", or empty = not known
 * @param medianOtherCpuPct median over the boots of other processes' share of the host's CPU time
 *     (not the worker's, not its VMs'), percent; NaN when no boot measured it
 */
public record HostSummary(String arm, int boots, double medianCpuSome, double maxCpuSome, int interfered,
    int rerun, int kept, String keptWhy, double medianOtherCpuPct) {

  /**
   * One summary per arm with a boot whose host pressure was measured, the baseline first, then as
   * compared, then any other arm; empty when no boot has pressure (simulated hosts, boots
   * recorded before hosts were sampled, {@code abfleet analyze}).
   */
  public static List<HostSummary> of(Report r) {
    if (r.run() == null) {
      return List.of();
    }
    Map<String, List<BootRecord>> byArm = new LinkedHashMap<>();
    byArm.put(r.design().baseline(), new ArrayList<>());
    r.design().compared().forEach(arm -> byArm.put(arm, new ArrayList<>()));
    for (BootRecord b : r.run().boots()) {
      BootHost h = b.run() == null ? null : b.run().host();
      if (h != null && h.pressure().hasPsi()) {
        byArm.computeIfAbsent(b.arm(), k -> new ArrayList<>()).add(b);
      }
    }
    String keptWhy = switch (r.run().onInterference()) {
      case "rerun" -> "re-run limit reached";
      case "keep" -> "by policy";
      case "off" -> "no quiet-host policy";
      default -> "";
    };
    List<HostSummary> out = new ArrayList<>();
    byArm.forEach((arm, boots) -> {
      if (!boots.isEmpty()) {
        double[] cpu = boots.stream().mapToDouble(b -> b.run().host().pressure().cpuSomeAvg10()).toArray();
        double[] others = boots.stream().mapToDouble(b -> b.run().host().pressure().otherCpuPct())
            .filter(v -> !Double.isNaN(v)).toArray();
        List<BootRecord> interfered = boots.stream().filter(b -> b.run().host().interfered()).toList();
        int rerun = (int) interfered.stream().filter(BootRecord::rerun).count();
        out.add(new HostSummary(arm, boots.size(), Medians.of(cpu),
            Arrays.stream(cpu).max().orElse(Double.NaN), interfered.size(), rerun,
            (int) interfered.stream().filter(b -> !b.rerun() && !b.warmupBoot()).count(), keptWhy,
            others.length == 0 ? Double.NaN : Medians.of(others)));
      }
    });
    return out;
  }

  /**
   * The report lines, one per arm with pressure measured, then a warning per arm whose
   * interfered boots were pooled into the verdict; empty when no boot has pressure.
   */
  public static List<String> lines(Report r) {
    List<HostSummary> all = of(r);
    List<String> out = new ArrayList<>(all.stream().map(HostSummary::line).toList());
    all.stream().filter(h -> h.kept() > 0).forEach(h -> out.add(h.warning()));
    return out;
  }

  /**
   * "host: arm b: cpu pressure median 0.4% (max 37.2%), other processes median 1.2% of cpu,
   * 3 of 12 boots interfered (2 re-run, 1 kept: re-run limit reached)"; the other processes' part
   * only where measured, the parenthesis only when a boot was interfered.
   */
  public String line() {
    String others = Double.isNaN(medianOtherCpuPct) ? ""
        : String.format(Locale.ROOT, ", other processes median %.1f%% of cpu", medianOtherCpuPct);
    String head = String.format(Locale.ROOT,
        "host: arm %s: cpu pressure median %.1f%% (max %.1f%%)%s, %d of %d boots interfered",
        arm, medianCpuSome, maxCpuSome, others, interfered, boots);
    if (interfered == 0) {
      return head;
    }
    return head + " (" + rerun + " re-run, " + kept + " kept" + (keptWhy.isEmpty() ? "" : ": " + keptWhy) + ")";
  }

  /** "warning: arm b: 1 interfered boot kept in the verdict (re-run limit reached): ..." */
  public String warning() {
    return "warning: arm " + arm + ": " + kept + " interfered boot" + (kept == 1 ? "" : "s")
        + " kept in the verdict" + (keptWhy.isEmpty() ? "" : " (" + keptWhy + ")")
        + ": the host was not quiet, so their figures may reflect it rather than the kernel";
  }
}
