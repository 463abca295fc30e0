package dev.abfleet.cli.bisect;

import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectProbe;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Progress of a followed bisect on stderr: each probe as its experiment starts and ends. */
final class BisectProgress {
  private final PrintStream err;
  private int probesShown = -1;
  private String inFlightShown = "";

  BisectProgress(PrintStream err) {
    this.err = err;
  }

  void seen(Bisect b) {
    if (probesShown < 0) {
      // Attached to a bisect under way: what is done already comes in the report.
      probesShown = b.getProbesCount();
    }
    for (int i = probesShown; i < b.getProbesCount(); i++) {
      BisectProbe p = b.getProbes(i);
      err.println("abfleet: bisect: " + (BisectReport.endpoints(b, i) ? "endpoints" : "probe") + " #" + p.getProbe()
          + " vs #" + p.getGood() + ": " + p.getOutcome().toUpperCase(Locale.ROOT) + " (" + p.getNote()
          + (p.getRule().isEmpty() ? "" : "; " + p.getRule()) + ")");
    }
    probesShown = b.getProbesCount();
    String inFlight = b.hasInFlight() ? b.getInFlight().getExperimentId() : "";
    if (!inFlight.isEmpty() && !inFlight.equals(inFlightShown)) {
      // The endpoints' experiment (before any step finished) has only the last look: it measures R on the full budget.
      List<Integer> looks = b.getProbesCount() == 0 && !b.getLooksList().isEmpty()
          ? List.of(b.getLooks(b.getLooksCount() - 1)) : b.getLooksList();
      err.println("abfleet: bisect: experiment " + inFlight + ": #" + b.getInFlight().getGood() + " vs #"
          + b.getInFlight().getProbe() + ", looks at " + looks + " pairs"
          + (BisectReport.simulation(b) ? " (SIMULATION)" : ""));
    }
    inFlightShown = inFlight;
  }
}
