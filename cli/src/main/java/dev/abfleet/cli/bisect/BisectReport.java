package dev.abfleet.cli.bisect;

import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectKernel;
import dev.abfleet.proto.fleet.v1.BisectProbe;
import java.util.Locale;

/** How {@code abfleet bisect} prints a bisect: one line per probe, the answer, the cost. */
final class BisectReport {
  /** Printed first (and last) when the probes ran on sim hosts: no result of sim is a measurement. */
  static final String SIMULATION = "SIMULATION: --hypervisor sim: every verdict below comes from the sim"
      + " performance model; no kernel was booted";

  private BisectReport() {}

  static boolean simulation(Bisect b) {
    return b.getHypervisor().equals("sim");
  }

  /**
   * The search, one line per probe (one experiment each), and the answer with its cost; framed
   * by {@link #SIMULATION} lines for a bisect on sim hosts. A bisect that failed or was
   * cancelled has no answer line: its message says why.
   */
  static String render(Bisect b) {
    StringBuilder out = new StringBuilder();
    boolean sim = simulation(b);
    if (sim) {
      out.append(SIMULATION).append('\n');
    }
    for (BisectProbe p : b.getProbesList()) {
      out.append(String.format(Locale.ROOT, "probe #%d vs #%d: %-12s change %s [%s, %s], %d pairs, %d boots,"
          + " experiment %s: %s%n", p.getProbe(), p.getGood(), p.getOutcome(), pct(p.getChange()),
          pct(p.getCiLow()), pct(p.getCiHigh()), p.getPairs(), p.getBoots(), p.getExperimentId(), p.getNote()));
    }
    switch (b.getState()) {
      case "found" -> out.append("first regressing: #").append(b.getFirstBad()).append(' ')
          .append(kernel(b, b.getFirstBad())).append(" (last good: #").append(b.getLastGood()).append(' ')
          .append(kernel(b, b.getLastGood())).append(")\n");
      case "ambiguous" -> out.append("ambiguous: the first regressing kernel is one of #").append(b.getLastGood() + 1)
          .append(" to #").append(b.getFirstBad()).append("; probe #").append(b.getAmbiguousProbe())
          .append(" stayed inconclusive at the last look (raise --looks or --threshold, or bisect that range again)\n");
      default -> out.append(b.getState()).append(": ").append(b.getMessage()).append('\n');
    }
    long experiments = b.getProbesList().stream().filter(p -> !p.getExperimentId().isEmpty()).count();
    out.append(String.format(Locale.ROOT, "cost: %d probes, %d experiments, %d pairs, %d boots%n",
        b.getProbesCount(), experiments, b.getProbesList().stream().mapToInt(BisectProbe::getPairs).sum(),
        b.getProbesList().stream().mapToInt(BisectProbe::getBoots).sum()));
    if (sim) {
      out.append(SIMULATION).append('\n');
    }
    return out.toString();
  }

  /** The kernel as the client named it (its path); its digest when it sent no name. */
  private static String kernel(Bisect b, int index) {
    BisectKernel k = b.getKernels(index);
    return k.getLabel().isEmpty() ? "sha256:" + k.getKernel().getSha256() : k.getLabel();
  }

  private static String pct(double r) {
    return Double.isFinite(r) ? String.format(Locale.ROOT, "%+.1f%%", 100 * r) : "n/a";
  }
}
