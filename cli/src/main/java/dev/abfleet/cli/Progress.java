package dev.abfleet.cli;

import dev.abfleet.report.Numbers;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.stats.VerdictEngine;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Prints one line per finished boot to stderr while an experiment runs. */
public final class Progress {
  private final PrintStream err;
  private final Set<String> seen = new HashSet<>();
  private int lastPairs = -1;

  public Progress(PrintStream err) {
    this.err = err;
  }

  public void onChange(Experiment e) {
    for (Boot b : e.getBootsList()) {
      if (seen.add(b.getRunId())) {
        err.println(line(e, b));
      }
    }
    if (e.getPairsDone() != lastPairs) {
      lastPairs = e.getPairsDone();
      err.printf(Locale.ROOT, "  pairs %d/%d%n", e.getPairsDone(), e.getPairsWanted());
    }
  }

  static String line(Experiment e, Boot b) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "  pair %d.%d  %-10s %-12s %s/%s  boot %.1fs run %.1fs",
        b.getPairIndex(), b.getOrderInPair(), b.getArm(), b.getHostId(),
        b.getTelemetry().getHypervisor(), b.getTelemetry().getAccelerator(),
        b.getTelemetry().getBootMs() / 1000.0, b.getTelemetry().getRunMs() / 1000.0));
    if (!b.getStatus().equals("ok")) {
      sb.append("  ").append(b.getStatus().toUpperCase(Locale.ROOT)).append(": ").append(b.getMessage());
      return sb.toString();
    }
    Map<String, List<Double>> values = new LinkedHashMap<>();
    for (MetricSample s : b.getSamplesList()) {
      if (!s.getWarmup()) {
        values.computeIfAbsent(s.getMetric(), k -> new java.util.ArrayList<>()).add(s.getValue());
      }
    }
    values.forEach((metric, v) -> sb.append("  ").append(metric).append(' ').append(
        Numbers.value(VerdictEngine.median(v.stream().mapToDouble(Double::doubleValue).toArray()))));
    return sb.toString();
  }
}
