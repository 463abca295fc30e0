package dev.abfleet.cli.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.stats.changepoint.ChangePoint;
import java.util.List;
import java.util.Locale;

/** Renders a {@link MetricHistory} as a compact text table or as JSON. */
final class HistoryFormat {
  private HistoryFormat() {}

  static String text(MetricHistory h) {
    if (h.offline()) {
      return offlineText(h);
    }
    StringBuilder out = new StringBuilder();
    if (h.runs().stream().anyMatch(HistoryEntry::simulation)) {
      out.append("SIMULATION: runs marked sim came from the sim hypervisor's performance model;"
          + " no kernel was booted\n");
    }
    boolean change = h.series().equals("change");
    out.append(String.format(Locale.ROOT, "%s, schedule %s: %d runs, %d measured (series: %s%s%s)%n",
        h.metric(), h.schedule(), h.runs().size(), h.measured(),
        change ? "change vs baseline" : "candidate center",
        h.unit().isEmpty() || change ? "" : ", " + h.unit(),
        h.better().isEmpty() ? "" : ", " + h.better() + " is better"));
    out.append(String.format(Locale.ROOT, "%3s  %-16s  %-12s  %10s  %8s  %-18s  %-12s  %s%n",
        "#", "date", "candidate", "center", "change", "ci", "verdict", "decision"));
    for (int i = 0; i < h.runs().size(); i++) {
      HistoryEntry e = h.runs().get(i);
      var m = e.metric(h.metric());
      String date = e.date().length() >= 16 ? e.date().substring(0, 16).replace('T', ' ') : e.date();
      String center = m.map(x -> number(x.candidateCenter())).orElse("-");
      String chg = m.map(x -> percent(x.change())).orElse("-");
      String ci = m.map(x -> "[" + percent(x.ciLow()) + ", " + percent(x.ciHigh()) + "]").orElse("-");
      String verdict = e.state().equals("completed") ? m.map(HistoryEntry.Metric::verdict).orElse("-") : e.state();
      out.append(String.format(Locale.ROOT, "%3d  %-16s  %-12s  %10s  %8s  %-18s  %-12s  %s",
          i + 1, date, shortSha(e.candidate()), center, chg, ci, verdict, e.shownDecision()));
      if (e.simulation()) {
        out.append("  sim");
      }
      h.changeAt(i).ifPresent(cp -> out.append("  <- change ").append(describe(cp, change)));
      out.append('\n');
    }
    held(h, out);
    return summary(h, out);
  }

  /** Held runs, with why and how to decide them: their candidates are not the baseline. */
  private static void held(MetricHistory h, StringBuilder out) {
    List<HistoryEntry> held = h.runs().stream().filter(e -> e.decision().equals("held")).toList();
    if (held.isEmpty()) {
      return;
    }
    out.append(held.size()).append(held.size() == 1 ? " run is" : " runs are")
        .append(" held (gate inconclusive; the baseline did not move): abfleet nightly accept|reject RUN\n");
    for (HistoryEntry e : held) {
      out.append("  held ").append(e.experiment()).append(": ").append(e.decisionReason()).append('\n');
    }
  }

  /** A series from a file: run number, date, label and value, the change points marked. */
  private static String offlineText(MetricHistory h) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%s: %d values, %d measured%s%n",
        h.metric(), h.runs().size(), h.measured(), h.unit().isEmpty() ? "" : " (" + h.unit() + ")"));
    out.append(String.format(Locale.ROOT, "%3s  %-20s  %-16s  %10s%n", "#", "date", "label", "value"));
    for (int i = 0; i < h.runs().size(); i++) {
      HistoryEntry e = h.runs().get(i);
      out.append(String.format(Locale.ROOT, "%3d  %-20s  %-16s  %10s", i + 1, e.date().isEmpty() ? "-" : e.date(),
          e.experiment().isEmpty() ? "-" : e.experiment(), Double.isNaN(h.values()[i]) ? "-" : number(h.values()[i])));
      h.changeAt(i).ifPresent(cp -> out.append("  <- change ").append(describe(cp, false)));
      out.append('\n');
    }
    return summary(h, out);
  }

  private static String summary(MetricHistory h, StringBuilder out) {
    if (h.points().isEmpty()) {
      out.append("no change point");
    } else {
      out.append("change points: ").append(h.points().size());
    }
    if (h.minChange() > 0) {
      out.append(" (changes below ").append(h.series().equals("change")
          ? String.format(Locale.ROOT, "%.1f pp", 100 * h.minChange())
          : String.format(Locale.ROOT, "%.1f%%", 100 * h.minChange())).append(" not flagged)");
    }
    out.append('\n');
    h.warnings().forEach(w -> out.append("warning: ").append(w).append('\n'));
    return out.toString();
  }

  private static String describe(ChangePoint cp, boolean changeSeries) {
    String magnitude = changeSeries || Double.isNaN(cp.relative())
        ? "shift " + (changeSeries ? percentPoints(cp.shift()) : number(cp.shift()))
        : percent(cp.relative());
    return magnitude + " (" + (changeSeries ? percent(cp.beforeMedian()) : number(cp.beforeMedian())) + " -> "
        + (changeSeries ? percent(cp.afterMedian()) : number(cp.afterMedian()))
        + String.format(Locale.ROOT, ", p=%.3f)", cp.pValue());
  }

  static String json(MetricHistory h) {
    ObjectNode root = HistoryFile.JSON.createObjectNode();
    root.put("schedule", h.schedule());
    root.put("metric", h.metric());
    root.put("series", h.series());
    root.put("unit", h.unit());
    root.put("better", h.better());
    root.put("min_change", h.minChange());
    ArrayNode runs = root.putArray("runs");
    for (int i = 0; i < h.runs().size(); i++) {
      HistoryEntry e = h.runs().get(i);
      ObjectNode r = runs.addObject();
      // Numbered from 1, as the text table, the dashboard and /api/nightly/series number runs.
      r.put("run", i + 1);
      r.put("date", e.date());
      if (h.offline()) {
        r.put("label", e.experiment());
        putNumber(r, "value", h.values()[i]);
        continue;
      }
      r.put("experiment", e.experiment());
      r.put("state", e.state());
      r.put("candidate_sha256", e.candidate() == null ? "" : e.candidate().sha256());
      r.put("baseline_sha256", e.baseline() == null ? "" : e.baseline().sha256());
      putNumber(r, "value", h.values()[i]);
      e.metric(h.metric()).ifPresent(m -> {
        putNumber(r, "baseline_center", m.baselineCenter());
        putNumber(r, "candidate_center", m.candidateCenter());
        putNumber(r, "change", m.change());
        putNumber(r, "ci_low", m.ciLow());
        putNumber(r, "ci_high", m.ciHigh());
        r.put("verdict", m.verdict());
      });
      r.put("accepted", e.accepted());
      r.put("decision", e.decision());
      r.put("decided_by", e.decidedBy());
      r.put("decision_reason", e.decisionReason());
      if (e.simulation()) {
        r.put("simulation", true);
      }
    }
    ArrayNode cps = root.putArray("change_points");
    for (ChangePoint cp : h.points()) {
      ObjectNode c = cps.addObject();
      c.put("run", cp.index() + 1);
      c.put("date", h.runs().get(cp.index()).date());
      putNumber(c, "before", cp.beforeMedian());
      putNumber(c, "after", cp.afterMedian());
      putNumber(c, "shift", cp.shift());
      putNumber(c, "relative", cp.relative());
      putNumber(c, "statistic", cp.statistic());
      putNumber(c, "p_value", cp.pValue());
    }
    ArrayNode warnings = root.putArray("warnings");
    h.warnings().forEach(warnings::add);
    return root.toPrettyString() + "\n";
  }

  /** NaN as JSON null. */
  private static void putNumber(ObjectNode n, String field, double v) {
    if (Double.isFinite(v)) {
      n.put(field, v);
    } else {
      n.putNull(field);
    }
  }

  private static String shortSha(HistoryEntry.Artifact a) {
    return a == null || a.sha256().length() < 12 ? "-" : a.sha256().substring(0, 12);
  }

  static String percent(double r) {
    return Double.isFinite(r) ? String.format(Locale.ROOT, "%+.1f%%", 100 * r) : "n/a";
  }

  private static String percentPoints(double r) {
    return Double.isFinite(r) ? String.format(Locale.ROOT, "%+.1f pp", 100 * r) : "n/a";
  }

  static String number(double v) {
    if (!Double.isFinite(v)) {
      return "n/a";
    }
    double a = Math.abs(v);
    return a >= 100 ? String.format(Locale.ROOT, "%.0f", v)
        : a >= 1 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.4g", v);
  }
}
