package dev.abfleet.report;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.verdict.Assessment;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A compact table a benchstat user reads at a glance. */
public final class TextReport {
  private TextReport() {}

  /** Several experiments, one after the other, a blank line apart. */
  public static String render(List<Report> reports) {
    return Report.joined(reports, TextReport::render);
  }

  public static String render(Report r) {
    StringBuilder out = new StringBuilder();
    if (r.simulation()) {
      out.append(Report.SIMULATION).append('\n');
    }
    out.append(header(r)).append('\n');
    r.buildLines().forEach(line -> out.append(line).append('\n'));
    Assessment a = r.assessment();
    if (a.byClass()) {
      out.append("host classes: ").append(r.classesLine()).append('\n');
    }
    if (!a.rows().isEmpty()) {
      out.append(Numbers.table(rows(r)));
    }
    out.append(r.verdictLine()).append('\n');
    out.append(r.gateLine()).append('\n');
    if (a.rows().stream().anyMatch(row -> !row.comparison().gating())) {
      out.append("* not gating\n");
    }
    bootFailures(r, out);
    if (r.run() != null && r.run().bootTimeout() != null && !r.run().boots().isEmpty()) {
      out.append(r.run().bootTimeout().line()).append('\n');
    }
    ConsoleSummary.lines(r).forEach(line -> out.append(line).append('\n'));
    HostSummary.lines(r).forEach(line -> out.append(line).append('\n'));
    HostFactChange.lines(r).forEach(line -> out.append(line).append('\n'));
    telemetry(r, out);
    ratios(r, out);
    for (Row row : a.rows()) {
      for (String w : row.comparison().warnings()) {
        out.append("warning: ").append(r.rowName(row))
            .append(row.comparison().hostClass().isEmpty() ? "" : " [" + row.comparison().hostClass() + "]")
            .append(": ").append(w).append('\n');
      }
    }
    if (r.run() != null && !r.run().message().isEmpty()) {
      out.append(r.run().state()).append(": ").append(r.run().message()).append('\n');
    }
    return out.toString();
  }

  private static String header(Report r) {
    Design d = r.design();
    StringBuilder out = new StringBuilder("experiment ").append(d.experiment()).append(": ")
        .append(d.baseline()).append(" (baseline) vs ").append(String.join(", ", d.candidates()))
        .append(d.ceiling().isEmpty() ? "" : " (ceiling " + d.ceiling() + ")")
        .append(", ").append(r.pairsLine());
    if (r.run() != null) {
      out.append(" on ").append(String.join(", ", r.hosts()))
          .append(" [").append(String.join(", ", r.accelerators())).append("]")
          .append(", seed ").append(r.run().seed());
    }
    return out.toString();
  }

  private static List<String[]> rows(Report r) {
    Assessment a = r.assessment();
    boolean ceiling = !r.design().ceiling().isEmpty();
    List<String> header = new ArrayList<>(List.of("metric", "unit", "baseline", "candidate",
        "change", r.intervalHeader(), "p (adj.)"));
    if (!a.paired()) {
      header.add(2, "n");
    }
    if (a.byClass()) {
      header.add(1, "host class");
    }
    if (ceiling) {
      header.add("of ceiling");
    }
    header.add("verdict");
    List<String[]> rows = new ArrayList<>();
    rows.add(header.toArray(String[]::new));
    for (Row row : a.rows()) {
      Comparison c = row.comparison();
      List<String> cells = new ArrayList<>(List.of(
          r.rowName(row) + (c.gating() ? "" : " *"),
          c.unit(),
          Numbers.value(c.baselineCenter()),
          Numbers.value(c.candidateCenter()),
          Numbers.percent(c.change()),
          Numbers.interval(c.ciLow(), c.ciHigh()),
          Numbers.p(c.pAdjusted())));
      if (!a.paired()) {
        cells.add(2, c.nBaseline() + "+" + c.nCandidate());
      }
      if (a.byClass()) {
        cells.add(1, r.classLabel(row));
      }
      if (ceiling) {
        cells.add(Numbers.ofCeiling(row.ofCeiling()));
      }
      cells.add(verdict(c));
      rows.add(cells.toArray(String[]::new));
    }
    return rows;
  }

  static String verdict(Comparison c) {
    return c.verdict().wire()
        + (c.reasons().isEmpty() ? "" : " (" + String.join(", ", c.reasons()) + ")");
  }

  /** Guest counters whose rate per unit of work moved most, under the verdicts. */
  static void telemetry(Report r, StringBuilder out) {
    List<TelemetryChanges.Row> rows = TelemetryChanges.of(r);
    if (rows.isEmpty()) {
      return;
    }
    out.append("guest counters per unit of work (never gating): baseline -> candidate median,"
        + " paired median change [95% sign-test interval]\n");
    List<String[]> table = new ArrayList<>();
    table.add(new String[] {"  metric", "counter", "baseline", "candidate", "change", "interval",
        "pairs"});
    for (TelemetryChanges.Row t : rows) {
      table.add(new String[] {"  " + (r.multiArm() ? t.arm() + "/" : "") + t.metric(), t.label(),
          Numbers.value(t.baselineRate()), Numbers.value(t.candidateRate()),
          Numbers.signed(t.change()), Numbers.signedInterval(t.low(), t.high()),
          String.valueOf(t.pairs())});
    }
    out.append(Numbers.table(table));
  }

  /**
   * One line per counter ratio, under the counters: "metadata_stat res_per_device_req (RES /
   * virtio*-request*): 0.980 -> 0.0200 (-0.960 [-0.970, -0.950], 8 pairs)".
   */
  static void ratios(Report r, StringBuilder out) {
    List<CounterRatios.Row> rows = CounterRatios.of(r);
    if (rows.isEmpty()) {
      return;
    }
    out.append("counter ratios per boot (never gating): baseline -> candidate median (paired"
        + " median change [95% sign-test interval], pairs)\n");
    for (CounterRatios.Row t : rows) {
      out.append("  ").append(r.multiArm() ? t.arm() + "/" : "").append(t.metric()).append(' ')
          .append(t.name()).append(" (").append(t.definition()).append("): ")
          .append(Numbers.value(t.baseline())).append(" -> ").append(Numbers.value(t.candidate()))
          .append(" (").append(Numbers.signed(t.change()));
      if (Double.isFinite(t.low())) {
        out.append(' ').append(Numbers.signedInterval(t.low(), t.high()));
      }
      out.append(", ").append(t.pairs()).append(t.pairs() == 1 ? " pair)" : " pairs)").append('\n');
    }
  }

  /** One line per candidate with failed boots: both arms' failures and Fisher's verdict. */
  static void bootFailures(Report r, StringBuilder out) {
    for (Map.Entry<String, BootFailureComparison> e : r.assessment().bootFailures().entrySet()) {
      BootFailureComparison b = e.getValue();
      if (b.baselineFailed() + b.candidateFailed() > 0) {
        out.append("boot failures: ").append(r.bootFailuresLine(e.getKey(), b)).append(": ")
            .append(b.verdict().wire()).append('\n');
      }
    }
  }
}
