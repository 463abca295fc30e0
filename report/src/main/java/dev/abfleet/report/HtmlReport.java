package dev.abfleet.report;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.verdict.Assessment;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One self-contained HTML page: the verdict table, then per metric (and per host class of a
 * cross-host experiment) the per-boot values and the paired changes as server-side SVG
 * ({@link BootCharts}), and the guest counters that moved. No scripts and nothing fetched: the
 * style sheet is inlined (with a print style), so the file can be mailed, archived or printed.
 */
public final class HtmlReport {
  private HtmlReport() {}

  public static String render(Report r) {
    return render(r, List.of());
  }

  /** The report with the measured noise of its host classes quoted at its end. */
  public static String render(Report r, List<NoiseCalibration> noise) {
    return document(title(r), section(r, noise, new int[1]));
  }

  /** Several experiments ({@code abfleet analyze}) in one page. */
  public static String render(List<Report> reports) {
    int[] ids = new int[1];
    StringBuilder body = new StringBuilder();
    reports.forEach(r -> body.append(section(r, List.of(), ids)));
    String title = reports.size() == 1 ? title(reports.get(0)) : "abfleet: " + reports.size()
        + " experiments";
    return document(title, body.toString());
  }

  private static String title(Report r) {
    Design d = r.design();
    return "abfleet: " + d.baseline() + " vs " + String.join(", ", d.candidates()) + " ("
        + (r.interim() ? "so far: " : "") + r.assessment().overallLabel() + ")";
  }

  private static String document(String title, String body) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        + "<title>" + HtmlText.escape(title) + "</title>\n<style>\n" + HtmlStyle.CSS
        + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
  }

  /** One experiment; {@code ids} numbers the charts so their ids are unique in the page. */
  private static String section(Report r, List<NoiseCalibration> noise, int[] ids) {
    Design d = r.design();
    Assessment a = r.assessment();
    StringBuilder out = new StringBuilder("<section class=\"experiment\">\n");
    out.append("<h1>").append(esc(d.experiment())).append(": ").append(esc(d.baseline()))
        .append(" vs ").append(esc(String.join(", ", d.candidates())))
        .append(d.ceiling().isEmpty() ? "" : " (ceiling " + esc(d.ceiling()) + ")")
        .append(headline(r)).append("</h1>\n");
    if (r.simulation()) {
      out.append("<p class=\"banner\" role=\"note\"><strong>").append(esc(Report.SIMULATION))
          .append("</strong></p>\n");
    }
    out.append("<p>").append(esc(facts(r))).append("</p>\n");
    list(r.buildLines(), "builds", out);
    if (a.byClass()) {
      out.append("<p>Host classes: ").append(esc(r.classesLine())).append('.')
          .append(a.classHeterogeneity()
              ? " <strong>The host classes disagree: no pooled verdict where they do.</strong>" : "")
          .append("</p>\n");
    }
    if (!a.rows().isEmpty()) {
      VerdictTable.append(r, out);
    }
    out.append("<p>").append(esc(r.verdictLine())).append("</p>\n");
    out.append("<p class=\"gate\">").append(esc(r.gateLine())).append("</p>\n");
    bootFailures(r, out);
    ConsoleSummary.lines(r).forEach(line -> out.append("<p class=\"console\">").append(esc(line)).append("</p>\n"));
    HostSummary.lines(r).forEach(line -> out.append("<p class=\"host\">").append(esc(line)).append("</p>\n"));
    HostFactChange.lines(r).forEach(line -> out.append("<p class=\"host warn\">").append(esc(line)).append("</p>\n"));
    lists(r, noise, out);
    metrics(r, ids, out);
    out.append("</section>\n");
    return out.toString();
  }

  /**
   * " — improved", or while the run goes on " — so far: inconclusive (interim, 4 of 10 pairs)":
   * an interim verdict must not read as the final one.
   */
  private static String headline(Report r) {
    Assessment a = r.assessment();
    if (r.interim()) {
      return " — <span class=\"verdict interim\">so far: " + esc(a.overallLabel()) + " (interim, "
          + r.run().pairsDone() + " of " + r.run().pairsWanted() + " pairs)</span>";
    }
    return " — <span class=\"verdict " + esc(a.overall()) + "\">" + esc(a.overallLabel())
        + "</span>";
  }

  private static String facts(Report r) {
    if (r.run() == null) {
      return "Experiment " + r.design().experiment() + ", " + r.pairsLine() + ".";
    }
    return r.pairsLine() + " on " + String.join(", ", r.hosts()) + " ("
        + String.join(", ", r.accelerators()) + "), seed " + r.run().seed() + ", " + r.run().state()
        + ".";
  }

  private static void bootFailures(Report r, StringBuilder out) {
    for (Map.Entry<String, BootFailureComparison> e : r.assessment().bootFailures().entrySet()) {
      BootFailureComparison b = e.getValue();
      if (b.baselineFailed() + b.candidateFailed() > 0) {
        out.append("<p class=\"failures\">Boot failures: ")
            .append(esc(r.bootFailuresLine(e.getKey(), b))).append(": <span class=\"verdict ")
            .append(esc(b.verdict().wire())).append("\">").append(esc(b.verdict().wire()))
            .append("</span></p>\n");
      }
    }
  }

  /** Warnings, measured noise and why a run stopped, as lists under the verdict. */
  private static void lists(Report r, List<NoiseCalibration> noise, StringBuilder out) {
    List<String> warnings = new ArrayList<>();
    for (Row row : r.assessment().rows()) {
      String cls = row.comparison().hostClass().isEmpty() ? "" : " [" + row.comparison().hostClass() + "]";
      row.comparison().warnings().forEach(w -> warnings.add(r.rowName(row) + cls + ": " + w));
    }
    list("Warnings", warnings, out);
    list("Measured noise", noise.stream().map(n -> NoiseSection.line(n, false)).toList(), out);
    if (r.run() != null && !r.run().message().isEmpty()) {
      out.append("<p>").append(esc(r.run().state() + ": " + r.run().message())).append("</p>\n");
    }
  }

  private static void list(String heading, List<String> items, StringBuilder out) {
    if (items.isEmpty()) {
      return;
    }
    out.append("<h2>").append(esc(heading)).append("</h2>\n");
    list(items, "", out);
  }

  /** {@code items} as a list of class {@code cssClass} (empty = none); nothing when empty. */
  private static void list(List<String> items, String cssClass, StringBuilder out) {
    if (items.isEmpty()) {
      return;
    }
    out.append(cssClass.isEmpty() ? "<ul>\n" : "<ul class=\"" + cssClass + "\">\n");
    items.forEach(i -> out.append("<li>").append(esc(i)).append("</li>\n"));
    out.append("</ul>\n");
  }

  /** Per metric: the charts of every host class (or of all boots), then its counters. */
  private static void metrics(Report r, int[] ids, StringBuilder out) {
    Map<String, Comparison> metrics = new LinkedHashMap<>();
    r.assessment().rows().forEach(row -> metrics.putIfAbsent(
        row.comparison().metric() + "\u0000" + row.comparison().unit(), row.comparison()));
    List<String> arms = new ArrayList<>();
    arms.add(r.design().baseline());
    arms.addAll(r.design().compared());
    List<String> classes = r.assessment().byClass()
        ? List.copyOf(r.assessment().classPairs().keySet()) : java.util.Collections.singletonList(null);
    List<TelemetryChanges.Row> telemetry = TelemetryChanges.of(r);
    List<CounterRatios.Row> ratios = CounterRatios.of(r);
    for (Comparison m : metrics.values()) {
      out.append("<section class=\"metric\">\n<h2>").append(esc(m.metric()))
          .append(m.unit().isEmpty() ? "" : " (" + esc(m.unit()) + ")").append("</h2>\n");
      if (r.run() == null) {
        out.append("<p>No per-boot charts: these boots were recorded elsewhere.</p>\n");
      } else {
        legend(arms, out);
        for (String cls : classes) {
          if (cls != null) {
            out.append("<h3>Host class ").append(esc(cls)).append("</h3>\n");
          }
          if (BootCharts.points(r, m.metric(), m.unit(), cls).isEmpty()) {
            out.append("<p>No boot has a value of this metric.</p>\n");
            continue;
          }
          out.append("<figure><figcaption>Per-boot values of ").append(esc(m.metric()))
              .append(", one series per arm</figcaption>")
              .append(BootCharts.bootsChart(r, arms, m.metric(), m.unit(), cls,
                  "chart" + ++ids[0])).append("</figure>\n");
          for (String arm : r.design().compared()) {
            Row row = row(r, arm, m, cls);
            out.append("<figure><figcaption>").append(esc(changesCaption(r, arm, m.metric())))
                .append("</figcaption>").append(BootCharts.changesChart(r, arm, row,
                    m.metric(), m.unit(), cls, "chart" + ++ids[0]));
            changesLegend(row, r.design().policy().noiseThreshold(), out);
            out.append("</figure>\n");
          }
        }
      }
      VerdictTable.telemetry(r, telemetry.stream().filter(t -> t.metric().equals(m.metric()))
          .toList(), out);
      VerdictTable.ratios(ratios.stream().filter(t -> t.metric().equals(m.metric())).toList(),
          out);
      out.append("</section>\n");
    }
  }

  private static Row row(Report r, String arm, Comparison m, String cls) {
    String want = cls == null ? "" : cls;
    return r.assessment().rows().stream()
        .filter(row -> row.arm().equals(arm) && row.comparison().metric().equals(m.metric())
            && row.comparison().unit().equals(m.unit()) && row.comparison().hostClass().equals(want))
        .findFirst().orElse(null);
  }

  /**
   * "Paired changes of metric: candidate X vs baseline B": with several candidates each chart
   * must say whose changes it draws.
   */
  static String changesCaption(Report r, String arm, String metric) {
    return "Paired changes of " + metric + ": " + (r.design().ceiling().equals(arm)
        ? "ceiling " : "candidate ") + arm + " vs baseline " + r.design().baseline()
        + ", one point per complete pair";
  }

  /**
   * The marks of a paired-changes chart, each drawn as the chart draws it (same style classes):
   * estimate and interval only when the verdict has them.
   */
  private static void changesLegend(Row row, double threshold, StringBuilder out) {
    double est = row == null ? Double.NaN : row.comparison().change();
    double lo = row == null ? Double.NaN : row.comparison().ciLow();
    double hi = row == null ? Double.NaN : row.comparison().ciHigh();
    out.append("<ul class=\"legend chart-legend\" aria-label=\"chart legend\">");
    out.append("<li class=\"marks-points\">points: one pair each</li>");
    if (Double.isFinite(est)) {
      legendItem("estimate", "<line class=\"estimate\" x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\"/>",
          "estimate " + Numbers.percent(est), out);
    }
    if (Double.isFinite(lo) && Double.isFinite(hi)) {
      legendItem("interval", "<rect class=\"interval\" x=\"0\" y=\"1\" width=\"24\" height=\"10\"/>",
          "interval " + Numbers.interval(lo, hi), out);
    }
    legendItem("threshold", "<line class=\"threshold\" x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\"/>",
        "noise threshold " + Numbers.percent(threshold).replace("+", "±"), out);
    legendItem("zero", "<line class=\"zero\" x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\"/>",
        "no change", out);
    out.append("</ul>\n");
  }

  private static void legendItem(String mark, String swatch, String label, StringBuilder out) {
    out.append("<li class=\"marks-").append(mark).append("\"><svg class=\"swatch\" width=\"24\"")
        .append(" height=\"12\" aria-hidden=\"true\">").append(swatch).append("</svg> ")
        .append(esc(label)).append("</li>");
  }

  /** Arms by colour and marker shape, as the charts draw them. */
  private static void legend(List<String> arms, StringBuilder out) {
    out.append("<ul class=\"legend\" aria-label=\"arms\">");
    for (int i = 0; i < arms.size(); i++) {
      String mark = switch (Svg.shape(i)) {
        case "square" -> "■";
        case "triangle" -> "▲";
        case "diamond" -> "◆";
        case "cross" -> "✕";
        default -> "●";
      };
      out.append("<li><span aria-hidden=\"true\" style=\"color:").append(Svg.colour(i))
          .append("\">").append(mark).append("</span> ").append(esc(arms.get(i)))
          .append(i == 0 ? " (baseline)" : "").append("</li>");
    }
    out.append("</ul>\n");
  }

  private static String esc(String s) {
    return HtmlText.escape(s);
  }
}
