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
    if (Double.isFinite(b.getEndpointChange()) && b.getFraction() > 0) {
      out.append(String.format(Locale.ROOT, "rule: against #0, a probe is good when its interval rules out %s x the"
          + " endpoints' %s [%s, %s] = %s, bad when it rules out no change%n", fraction(b.getFraction()),
          pct(b.getEndpointChange()), pct(b.getEndpointCiLow()), pct(b.getEndpointCiHigh()),
          pct(b.getFraction() * b.getEndpointChange())));
    }
    for (int i = 0; i < b.getProbesCount(); i++) {
      BisectProbe p = b.getProbes(i);
      out.append(String.format(Locale.ROOT, "%s #%d vs #%d: %-12s change %s [%s, %s], %d pairs, %d boots,"
          + " experiment %s: %s%s%n", endpoints(b, i) ? "endpoints" : "probe", p.getProbe(), p.getGood(),
          p.getOutcome(), pct(p.getChange()), pct(p.getCiLow()), pct(p.getCiHigh()), p.getPairs(), p.getBoots(),
          p.getExperimentId(), p.getNote(), p.getRule().isEmpty() ? "" : "; " + p.getRule()));
    }
    switch (b.getState()) {
      case "found" -> out.append("first regressing: #").append(b.getFirstBad()).append(' ')
          .append(kernel(b, b.getFirstBad())).append(" (last good: #").append(b.getLastGood()).append(' ')
          .append(kernel(b, b.getLastGood())).append(")\n");
      case "ambiguous" -> out.append("ambiguous: the first regressing kernel is one of #").append(b.getLastGood() + 1)
          .append(" to #").append(b.getFirstBad()).append("; probe #").append(b.getAmbiguousProbe())
          .append(" stayed inconclusive at the last look (more pairs with --looks, a smaller --fraction, or bisect that"
              + " range again)\n");
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

  /** The first step of a search compares the endpoints: kernel 0 against the last. */
  static boolean endpoints(Bisect b, int step) {
    return step == 0 && b.getProbesCount() > 0 && b.getProbes(0).getProbe() == b.getKernelsCount() - 1
        && b.getProbes(0).getGood() == 0;
  }

  private static String fraction(double f) {
    return String.format(Locale.ROOT, "%.2f", f).replaceAll("0+$", "").replaceAll("\\.$", "");
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
