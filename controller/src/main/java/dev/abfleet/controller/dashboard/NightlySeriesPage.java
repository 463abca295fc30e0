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
 * recent runs, and per gating metric the series of the candidate's median over the runs with
 * its change points marked (the same detection {@code abfleet history} prints: rank scan,
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
                .thenApply(reply -> section(s, reply.isSuccess() ? reply.getValue().runs() : List.of()))
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

  /** One schedule: what it is, its gating metrics' series, its latest runs. */
  static String section(Nightly.ScheduleView s, List<RunRecord> runs) {
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
    int chart = 0;
    for (String metric : gatingMetrics(runs)) {
      Series series = Series.of(s.name(), metric, "center", runs, DETECTION);
      out.append(figure(s.name(), series, chart++));
    }
    if (!runs.isEmpty()) {
      out.append(runsTable(s.name(), runs));
    }
    return out.append("</section>\n").toString();
  }

  private static String figure(String schedule, Series s, int n) {
    List<String> titles = new ArrayList<>();
    for (int i = 0; i < s.runs().size(); i++) {
      RunRecord r = s.runs().get(i);
      titles.add("run " + (i + 1) + ", " + r.date() + ", " + r.experiment() + ": "
          + (Double.isFinite(s.values()[i]) ? Numbers.value(s.values()[i]) + " " + s.unit() : r.state()));
    }
    List<ChangePoint> points = s.detection().points();
    List<SeriesChart.Change> changes = points.stream().map(cp -> new SeriesChart.Change(cp.index(),
        String.format(Locale.ROOT, "change before run %d: median %s to %s %s (%s), p = %.3f", cp.index() + 1,
            Numbers.value(cp.beforeMedian()), Numbers.value(cp.afterMedian()), s.unit(),
            Double.isFinite(cp.relative()) ? String.format(Locale.ROOT, "%+.1f%%", 100 * cp.relative()) : "n/a",
            cp.pValue()))).toList();
    double[] medians = new double[points.size() + 1];
    for (int k = 0; k < points.size(); k++) {
      medians[k] = points.get(k).beforeMedian();
    }
    medians[points.size()] = points.isEmpty() ? Double.NaN : points.get(points.size() - 1).afterMedian();
    String svg = SeriesChart.svg("nightly-" + schedule.replaceAll("[^A-Za-z0-9_-]", "_") + "-" + n, s.metric(),
        s.metric() + (s.unit().isEmpty() ? "" : " (" + s.unit() + ")"), s.values(), titles, changes, medians);
    StringBuilder out = new StringBuilder("<figure>\n").append(svg).append("<figcaption>").append(esc(s.metric()))
        .append(": candidate's median per run").append(s.better().isEmpty() ? "" : ", " + esc(s.better()) + " is better")
        .append("; ");
    if (changes.isEmpty()) {
      out.append("no change point.");
    } else {
      out.append(esc(String.join("; ", changes.stream().map(SeriesChart.Change::title).toList()))).append('.');
    }
    s.detection().warnings().forEach(w -> out.append(" ").append(esc(w)));
    return out.append("</figcaption>\n</figure>\n").toString();
  }

  private static String runsTable(String schedule, List<RunRecord> runs) {
    StringBuilder out = new StringBuilder("<table>\n<caption>Latest runs of ").append(esc(schedule))
        .append("</caption>\n<thead><tr><th scope=\"col\">Due</th><th scope=\"col\">Experiment</th>")
        .append("<th scope=\"col\">State</th><th scope=\"col\">Overall</th><th scope=\"col\">Accepted</th>")
        .append("</tr></thead>\n<tbody>\n");
    for (int i = runs.size() - 1; i >= Math.max(0, runs.size() - LISTED_RUNS); i--) {
      RunRecord r = runs.get(i);
      out.append("<tr><td class=\"left\">").append(esc(r.date())).append("</td><td class=\"left\"><a href=\"/experiments/")
          .append(esc(r.experiment())).append("\">").append(esc(r.experiment())).append("</a></td><td class=\"left\">")
          .append(esc(r.state())).append(r.message().isEmpty() ? "" : ": " + esc(r.message()))
          .append("</td><td class=\"left\"><span class=\"verdict ").append(esc(r.overall())).append("\">")
          .append(esc(r.overall())).append("</span></td><td>").append(r.accepted() ? "yes" : "no")
          .append("</td></tr>\n");
    }
    return out.append("</tbody>\n</table>\n").toString();
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
