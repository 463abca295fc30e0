package dev.abfleet.report;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.verdict.Assessment;

import dev.abfleet.stats.Comparison;
import java.util.ArrayList;
import java.util.List;

/** The HTML tables of {@link HtmlReport}: verdicts (the Markdown report's columns) and counters. */
final class VerdictTable {
  private VerdictTable() {}

  static void append(Report r, StringBuilder out) {
    Assessment a = r.assessment();
    List<String> header = new ArrayList<>(List.of("metric", "baseline", "candidate", "change",
        r.intervalHeader(), "p (adj.)", "verdict"));
    if (!a.paired()) {
      header.add(1, "n");
    }
    if (a.byClass()) {
      header.add(1, "host class");
    }
    out.append("<table class=\"verdicts\">\n<caption>Verdicts</caption>\n<thead><tr>");
    header.forEach(h -> out.append("<th scope=\"col\">").append(HtmlText.escape(h)).append("</th>"));
    out.append("</tr></thead>\n<tbody>\n");
    for (Row row : a.rows()) {
      Comparison c = row.comparison();
      out.append("<tr><th scope=\"row\">").append(HtmlText.escape(r.rowName(row)))
          .append(c.gating() ? "" : " (not gating)")
          .append(row.ofCeiling() > 0 ? " (" + Numbers.ofCeiling(row.ofCeiling()) + " of ceiling)" : "")
          .append("</th>");
      if (a.byClass()) {
        cell(out, r.classLabel(row));
      }
      if (!a.paired()) {
        cell(out, c.nBaseline() + "+" + c.nCandidate());
      }
      cell(out, Numbers.withUnit(c.baselineCenter(), c.unit()));
      cell(out, Numbers.withUnit(c.candidateCenter(), c.unit()));
      cell(out, Numbers.percent(c.change()));
      cell(out, Numbers.interval(c.ciLow(), c.ciHigh()));
      cell(out, Numbers.p(c.pAdjusted()));
      // An interim row's verdict is of the pairs so far: styled and worded as such.
      String verdictClass = r.interim() ? "interim" : c.verdict().wire();
      out.append("<td class=\"verdict ").append(HtmlText.escape(verdictClass)).append("\">")
          .append(HtmlText.escape(TextReport.verdict(c) + (r.interim() ? " so far" : "")))
          .append("</td></tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  /** Guest counters of one metric whose rate per unit of work moved most; none = no table. */
  static void telemetry(Report r, List<TelemetryChanges.Row> rows, StringBuilder out) {
    if (rows.isEmpty()) {
      return;
    }
    out.append("<table class=\"telemetry\">\n<caption>Guest counters per unit of work (never gating;"
        + " paired median change with its 95% sign-test interval)</caption>\n<thead><tr>");
    for (String h : List.of("arm", "counter", "baseline", "candidate", "change", "interval", "pairs")) {
      out.append("<th scope=\"col\">").append(h).append("</th>");
    }
    out.append("</tr></thead>\n<tbody>\n");
    for (TelemetryChanges.Row t : rows) {
      out.append("<tr>");
      cell(out, t.arm());
      cell(out, t.label());
      cell(out, Numbers.value(t.baselineRate()));
      cell(out, Numbers.value(t.candidateRate()));
      cell(out, Numbers.signed(t.change()));
      cell(out, Numbers.signedInterval(t.low(), t.high()));
      cell(out, String.valueOf(t.pairs()));
      out.append("</tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  /** Counter ratios of one metric; none = no table. */
  static void ratios(List<CounterRatios.Row> rows, StringBuilder out) {
    if (rows.isEmpty()) {
      return;
    }
    out.append("<table class=\"telemetry ratios\">\n<caption>Counter ratios per boot (never gating;"
        + " paired median change with its 95% sign-test interval)</caption>\n<thead><tr>");
    for (String h : List.of("arm", "ratio", "num / den", "baseline", "candidate", "change",
        "interval", "pairs")) {
      out.append("<th scope=\"col\">").append(h).append("</th>");
    }
    out.append("</tr></thead>\n<tbody>\n");
    for (CounterRatios.Row t : rows) {
      out.append("<tr>");
      cell(out, t.arm());
      cell(out, t.name());
      cell(out, t.definition());
      cell(out, Numbers.value(t.baseline()));
      cell(out, Numbers.value(t.candidate()));
      cell(out, Numbers.signed(t.change()));
      cell(out, Numbers.signedInterval(t.low(), t.high()));
      cell(out, String.valueOf(t.pairs()));
      out.append("</tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  private static void cell(StringBuilder out, String text) {
    out.append("<td>").append(HtmlText.escape(text)).append("</td>");
  }
}
