package dev.abfleet.controller.dashboard;

import static dev.abfleet.controller.dashboard.DashboardPage.esc;

import dev.abfleet.controller.nightly.Nightly;
import dev.abfleet.controller.nightly.RunRecord;
import dev.abfleet.controller.nightly.Series;
import dev.abfleet.report.Numbers;
import dev.abfleet.report.SeriesChart;
import dev.abfleet.stats.changepoint.ChangePoint;
import dev.abfleet.stats.changepoint.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.pattern.StatusReply;

/**
 * The dashboard's Nightly page: each schedule of the controller with its next fire time and
 * recent runs, and per gating metric the series over the runs (dates on the x axis): the
 * baseline's and the candidate's centres and the candidate's interval, with the change points of
 * the candidate's series marked (the same detection {@code abfleet history} prints: rank scan,
 * permutation p-value at 0.01, segments of at least 3 runs).
 */
public final class NightlySeriesPage implements NightlyPage {
  /** Runs listed under each schedule, newest first; the charts show every run. */
  static final int LISTED_RUNS = 20;
  private static final Settings DETECTION = new Settings(0.01, 3, 999, 0);

  private final ActorSystem<?> system;
  private final ActorRef<Nightly.Command> nightly;
  private final Duration askTimeout;

  public NightlySeriesPage(ActorSystem<?> system, ActorRef<Nightly.Command> nightly, Duration askTimeout) {
    this.system = system;
    this.nightly = nightly;
    this.askTimeout = askTimeout;
  }

  @Override
  public CompletionStage<String> mainHtml() {
    return AskPattern.<Nightly.Command, Nightly.Schedules>ask(nightly, Nightly.ListSchedules::new, askTimeout,
        system.scheduler()).thenCompose(schedules -> {
          List<CompletableFuture<String>> sections = new ArrayList<>();
          for (Nightly.ScheduleView s : schedules.schedules()) {
            sections.add(AskPattern.<Nightly.Command, StatusReply<Nightly.Runs>>ask(nightly,
                    replyTo -> new Nightly.GetRuns(s.name(), replyTo), askTimeout, system.scheduler())
                .thenApply(reply -> section(s, reply.isSuccess() ? reply.getValue().runs() : List.of(),
                    reply.isSuccess() ? reply.getValue().minChange() : 0))
                .toCompletableFuture());
          }
          return CompletableFuture.allOf(sections.toArray(CompletableFuture[]::new)).thenApply(done -> {
            StringBuilder main = new StringBuilder("<h1>Nightly</h1>\n");
            if (sections.isEmpty()) {
              main.append("<p>This controller has no schedules (fleet.yaml <code>schedules:</code>).</p>\n");
            }
            sections.forEach(f -> main.append(f.join()));
            return main.toString();
          });
        });
  }

  @Override
  public CompletionStage<java.util.Optional<String>> seriesJson(String schedule, String metric, String series) {
    return AskPattern.<Nightly.Command, StatusReply<Nightly.Runs>>ask(nightly,
            replyTo -> new Nightly.GetRuns(schedule, replyTo), askTimeout, system.scheduler())
        .thenApply(reply -> reply.isSuccess()
            ? java.util.Optional.of(SeriesJson.of(Series.of(schedule, metric, series, reply.getValue().runs(),
                DETECTION.withMinRelative(reply.getValue().minChange()))))
            : java.util.Optional.empty());
  }

  static String section(Nightly.ScheduleView s, List<RunRecord> runs) {
    return section(s, runs, 0);
  }

  /**
   * One schedule: what it is, its gating metrics' series, its latest runs.
   *
   * @param minChange the schedule's min_change (relative); 0 = none
   */
  static String section(Nightly.ScheduleView s, List<RunRecord> runs, double minChange) {
    StringBuilder out = new StringBuilder();
    String anchor = "schedule-" + s.name();
    out.append("<section class=\"schedule\" id=\"").append(esc(anchor)).append("\">\n<h2>")
        .append(esc(s.name())).append(s.simulation() ? " (SIMULATION)" : "").append("</h2>\n<p>cron <code>")
        .append(esc(s.cron())).append("</code> (").append(esc(s.zone())).append("), next run ")
        .append(esc(s.nextFire().isEmpty() ? "never" : s.nextFire())).append(", ").append(runs.size())
        .append(runs.size() == 1 ? " run" : " runs").append(" recorded")
        .append(s.running().isEmpty() ? "" : ", running: " + esc(String.join(", ", s.running()))).append(".</p>\n");
    if (s.simulation()) {
      out.append("<p class=\"banner\">SIMULATION: these runs come from the sim hypervisor's performance"
          + " model; no kernel was booted.</p>\n");
    }
    out.append(heldRuns(runs));
    int chart = 0;
    for (String metric : gatingMetrics(runs)) {
      Series series = Series.of(s.name(), metric, "center", runs, DETECTION.withMinRelative(minChange));
      out.append(figure(s.name(), series, chart++));
    }
    if (!runs.isEmpty()) {
      out.append(runsTable(s.name(), runs));
    }
    return out.append("</section>\n").toString();
  }

  static String figure(String schedule, Series s, int n) {
    List<SeriesChart.Run> runs = new ArrayList<>();
    for (int i = 0; i < s.runs().size(); i++) {
      RunRecord r = s.runs().get(i);
      var m = r.metric(s.metric()).filter(x -> r.state().equals("completed"));
      double base = m.map(RunRecord.Metric::baselineCenter).orElse(Double.NaN);
      // The interval is on the ratio candidate/baseline - 1; times the baseline it is the
      // candidate's interval in the metric's unit.
      double low = m.map(x -> x.baselineCenter() * (1 + x.ciLow())).orElse(Double.NaN);
      double high = m.map(x -> x.baselineCenter() * (1 + x.ciHigh())).orElse(Double.NaN);
      String title = "run " + (i + 1) + ", " + r.date() + ", " + r.experiment() + ": "
          + (Double.isFinite(s.values()[i]) ? "candidate " + Numbers.value(s.values()[i]) + " " + s.unit()
              + (Double.isFinite(low) && Double.isFinite(high) ? " [" + Numbers.value(low) + ", "
                  + Numbers.value(high) + "]" : "") : r.state());
      runs.add(new SeriesChart.Run(r.date(), base, s.values()[i], low, high, title));
    }
    List<ChangePoint> points = s.detection().points();
    List<SeriesChart.Change> changes = points.stream().map(cp -> new SeriesChart.Change(cp.index(),
        String.format(Locale.ROOT, "change before run %d (%s): median %s to %s %s (%s), p = %.3f",
            cp.index() + 1, s.runs().get(cp.index()).date(),
            Numbers.value(cp.beforeMedian()), Numbers.value(cp.afterMedian()), s.unit(),
            Double.isFinite(cp.relative()) ? String.format(Locale.ROOT, "%+.1f%%", 100 * cp.relative()) : "n/a",
            cp.pValue()))).toList();
    double[] medians = new double[points.size() + 1];
    for (int k = 0; k < points.size(); k++) {
      medians[k] = points.get(k).beforeMedian();
    }
    medians[points.size()] = points.isEmpty() ? Double.NaN : points.get(points.size() - 1).afterMedian();
    String svg = SeriesChart.svg("nightly-" + schedule.replaceAll("[^A-Za-z0-9_-]", "_") + "-" + n, s.metric(),
        s.metric() + (s.unit().isEmpty() ? "" : " (" + s.unit() + ")"), s.unit(), runs, changes, medians);
    StringBuilder out = new StringBuilder("<figure>\n").append(svg).append(LEGEND).append("<figcaption>")
        .append(esc(s.metric())).append(": baseline and candidate per run, the candidate's interval as a"
            + " vertical bar").append(s.better().isEmpty() ? "" : ", " + esc(s.better()) + " is better")
        .append("; change points in the candidate's series: ");
    if (changes.isEmpty()) {
      out.append("none.");
    } else {
      out.append(esc(String.join("; ", changes.stream().map(SeriesChart.Change::title).toList()))).append('.');
    }
    s.detection().warnings().forEach(w -> out.append(" ").append(esc(w)));
    return out.append("</figcaption>\n</figure>\n").toString();
  }

  /** The series chart's marks: the arms' colours and shapes are those of report charts (0, 1). */
  private static final String LEGEND = "<ul class=\"legend chart-legend\" aria-label=\"chart legend\">"
      + "<li data-legend=\"baseline\"><svg class=\"swatch\" width=\"12\" height=\"12\" aria-hidden=\"true\">"
      + "<circle cx=\"6\" cy=\"6\" r=\"4\" fill=\"#0072B2\"/></svg> baseline centre</li>"
      + "<li data-legend=\"candidate\"><svg class=\"swatch\" width=\"12\" height=\"12\" aria-hidden=\"true\">"
      + "<rect x=\"2\" y=\"2\" width=\"8\" height=\"8\" fill=\"#D55E00\"/></svg> candidate centre</li>"
      + "<li data-legend=\"interval\"><svg class=\"swatch\" width=\"12\" height=\"12\" aria-hidden=\"true\">"
      + "<line class=\"run-interval\" x1=\"6\" y1=\"0\" x2=\"6\" y2=\"12\" stroke=\"#D55E00\"/></svg>"
      + " candidate's interval</li>"
      + "<li data-legend=\"change\"><svg class=\"swatch\" width=\"24\" height=\"12\" aria-hidden=\"true\">"
      + "<line class=\"change-point\" x1=\"12\" y1=\"0\" x2=\"12\" y2=\"12\"/></svg> change point</li></ul>\n";

  private static String runsTable(String schedule, List<RunRecord> runs) {
    StringBuilder out = new StringBuilder("<table>\n<caption>Latest runs of ").append(esc(schedule))
        .append("</caption>\n<thead><tr><th scope=\"col\">Due</th><th scope=\"col\">Experiment</th>")
        .append("<th scope=\"col\">State</th><th scope=\"col\">Overall</th><th scope=\"col\">Decision</th>")
        .append("</tr></thead>\n<tbody>\n");
    for (int i = runs.size() - 1; i >= Math.max(0, runs.size() - LISTED_RUNS); i--) {
      RunRecord r = runs.get(i);
      out.append("<tr><td class=\"left\">").append(esc(r.date())).append("</td><td class=\"left\"><a href=\"/experiments/")
          .append(esc(r.experiment())).append("\">").append(esc(r.experiment())).append("</a></td><td class=\"left\">")
          .append(esc(r.state())).append(r.message().isEmpty() ? "" : ": " + esc(r.message()))
          .append("</td><td class=\"left\"><span class=\"verdict ").append(esc(r.overall())).append("\">")
          .append(esc(r.overall())).append("</span></td>").append(decisionCell(r)).append("</tr>\n");
    }
    return out.append("</tbody>\n</table>\n").toString();
  }

  /** The run's decision, who made it and why (the reason also as the cell's title). */
  private static String decisionCell(RunRecord r) {
    String by = r.decidedBy().isEmpty() ? "" : " by " + r.decidedBy();
    return "<td class=\"left\" data-decision=\"" + esc(r.decision()) + "\"" + (r.decisionReason().isEmpty() ? ""
        : " title=\"" + esc(r.decisionReason()) + "\"") + "><span class=\"decision " + esc(r.decision()) + "\">"
        + esc(r.decision().isEmpty() ? "-" : r.decision())
        + "</span>" + esc(by) + (r.decisionReason().isEmpty() ? "" : ": " + esc(r.decisionReason())) + "</td>";
  }

  /**
   * Held runs (the gate was inconclusive, the baseline did not move), oldest first, with why and
   * how to decide them; empty when none is held.
   */
  static String heldRuns(List<RunRecord> runs) {
    List<RunRecord> held = runs.stream().filter(RunRecord::held).toList();
    if (held.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("<div class=\"held\" role=\"status\"><p><strong>")
        .append(held.size()).append(held.size() == 1 ? " run is" : " runs are")
        .append(" HELD</strong>: the gate was inconclusive, so the baseline did not move. Accept or reject with"
            + " <code>abfleet nightly accept|reject RUN --reason TEXT</code>.</p>\n<ul>\n");
    for (RunRecord r : held) {
      out.append("<li data-held=\"").append(esc(r.experiment())).append("\"><a href=\"/experiments/")
          .append(esc(r.experiment())).append("\">").append(esc(r.experiment())).append("</a> (")
          .append(esc(r.date())).append("): ").append(esc(r.decisionReason())).append("</li>\n");
    }
    return out.append("</ul></div>\n").toString();
  }

  /** Gating metrics measured by any run, in first-seen order. */
  static List<String> gatingMetrics(List<RunRecord> runs) {
    Set<String> out = new LinkedHashSet<>();
    for (RunRecord r : runs) {
      r.metrics().stream().filter(RunRecord.Metric::gating).forEach(m -> out.add(m.metric()));
    }
    return List.copyOf(out);
  }
}
