package dev.abfleet.cli.report;

import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.ArrayList;
import java.util.List;

/** A compact table a benchstat user reads at a glance. */
public final class TextReport {
  private TextReport() {}

  public static String render(Experiment e) {
    StringBuilder out = new StringBuilder();
    if (Reports.simulation(e)) {
      out.append(Reports.SIMULATION).append('\n');
    }
    out.append("experiment ").append(e.getExperimentId())
        .append(": ").append(Reports.baseline(e)).append(" (baseline) vs ")
        .append(String.join(", ", Reports.candidates(e)))
        .append(Reports.ceiling(e).isEmpty() ? "" : " (ceiling " + Reports.ceiling(e) + ")")
        .append(", ").append(Reports.pairsLine(e))
        .append(" on ").append(String.join(", ", Reports.hosts(e)))
        .append(" [").append(String.join(", ", Reports.accelerators(e))).append("]")
        .append(", seed ").append(e.getSeed()).append('\n');
    boolean byClass = Reports.byClass(e);
    if (byClass) {
      out.append("host classes: ").append(Reports.classesLine(e)).append('\n');
    }
    List<String[]> rows = new ArrayList<>();
    boolean ceiling = !Reports.ceiling(e).isEmpty();
    List<String> header = new ArrayList<>(List.of("metric", "unit", "baseline", "candidate",
        "change", "CI (95% joint)", "p (Holm)"));
    if (byClass) {
      header.add(1, "host class");
    }
    if (ceiling) {
      header.add("of ceiling");
    }
    header.add("verdict");
    rows.add(header.toArray(String[]::new));
    boolean multi = Reports.multiArm(e);
    for (Comparison c : e.getComparisonsList()) {
      String verdict = c.getVerdict() + (c.getReasonsCount() > 0 ? " (" + String.join(", ", c.getReasonsList()) + ")" : "");
      List<String> row = new ArrayList<>(List.of(
          (multi ? c.getArm() + "/" : "") + c.getMetric() + (c.getGating() ? "" : " *"),
          c.getUnit(),
          Numbers.value(c.getBaselineCenter()),
          Numbers.value(c.getCandidateCenter()),
          Numbers.percent(c.getChange()),
          Numbers.interval(c.getCiLow(), c.getCiHigh()),
          Numbers.p(c.getPAdjusted())));
      if (byClass) {
        row.add(1, Reports.classLabel(e, c));
      }
      if (ceiling) {
        row.add(Numbers.ofCeiling(c.getOfCeiling()));
      }
      row.add(verdict);
      rows.add(row.toArray(String[]::new));
    }
    out.append(table(rows));
    out.append(Reports.verdictLine(e)).append('\n');
    if (e.getComparisonsList().stream().anyMatch(c -> !c.getGating())) {
      out.append("* not gating\n");
    }
    String failed = Reports.failedBoots(e);
    if (!failed.isEmpty()) {
      out.append(failed).append('\n');
    }
    for (Comparison c : e.getComparisonsList()) {
      for (String w : c.getWarningsList()) {
        out.append("warning: ").append(c.getMetric())
            .append(c.getHostClass().isEmpty() ? "" : " [" + c.getHostClass() + "]")
            .append(": ").append(w).append('\n');
      }
    }
    if (!e.getMessage().isEmpty()) {
      out.append(e.getState()).append(": ").append(e.getMessage()).append('\n');
    }
    return out.toString();
  }

  /** Columns padded to the widest cell, two spaces apart, trailing blanks trimmed. */
  public static String table(List<String[]> rows) {
    int cols = rows.get(0).length;
    int[] width = new int[cols];
    for (String[] r : rows) {
      for (int i = 0; i < cols; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < cols; i++) {
        line.append(r[i]);
        if (i < cols - 1) {
          line.append(" ".repeat(width[i] - r[i].length() + 2));
        }
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }
}
