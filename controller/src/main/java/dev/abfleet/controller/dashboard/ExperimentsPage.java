package dev.abfleet.controller.dashboard;

import static dev.abfleet.controller.dashboard.DashboardPage.esc;

import dev.abfleet.controller.report.ExperimentFacts;
import dev.abfleet.controller.report.ProtoReports;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.Numbers;
import java.util.List;
import java.util.Optional;

/**
 * The front page: running experiments with their progress, queued ones with their place in
 * line, finished ones with their verdict, one compact row each; each links to its report. A
 * small GET form filters the list ({@link ListFilter}); experiments on sim hosts carry a
 * SIMULATION badge.
 */
final class ExperimentsPage {
  private static final String SIM_TITLE = "runs on sim hosts: every figure comes from the sim"
      + " model; no kernel is booted";

  private ExperimentsPage() {}

  static String render(List<Experiment> experiments, boolean listable, boolean nightly) {
    return render(experiments, listable, nightly, ListFilter.NONE, Optional.empty());
  }

  /**
   * @param filter what to show; {@link ListFilter#NONE} = everything
   * @param error why the query was not a filter (shown above the list); empty = it was
   */
  static String render(List<Experiment> experiments, boolean listable, boolean nightly,
      ListFilter filter, Optional<String> error) {
    StringBuilder main = new StringBuilder("<h1>Experiments</h1>\n");
    if (!listable) {
      main.append("<p>This controller keeps its journal in memory, which cannot be listed; run it"
          + " with an H2 or PostgreSQL store to see experiments here. An experiment's page,"
          + " /experiments/ID, works either way.</p>\n");
    }
    form(filter, error, main);
    List<Experiment> shown = experiments.stream().filter(filter::matches).toList();
    if (filter.any()) {
      main.append("<p id=\"filtered\" class=\"muted\">").append(shown.size()).append(" of ")
          .append(experiments.size()).append(" listed experiments match.</p>\n");
    }
    List<Experiment> running = shown.stream()
        .filter(e -> ExperimentFacts.running(e) && !ExperimentFacts.queued(e)).toList();
    List<Experiment> queued = shown.stream().filter(ExperimentFacts::queued)
        .sorted(java.util.Comparator.comparingInt(Experiment::getQueuePosition)).toList();
    List<Experiment> done = shown.stream().filter(e -> !ExperimentFacts.running(e)).toList();
    running(running, main);
    queued(queued, main);
    done(done, main);
    return DashboardPage.page("abfleet: experiments (" + running.size() + " running, "
        + queued.size() + " queued)", DashboardPage.Section.EXPERIMENTS, nightly, true,
        main.toString());
  }

  /** The filter form; it submits to this page, so the filters stay in the URL (and a reload). */
  private static void form(ListFilter filter, Optional<String> error, StringBuilder out) {
    error.ifPresent(e -> out.append("<p id=\"filter-error\" class=\"banner\" role=\"alert\">")
        .append(esc(e)).append("</p>\n"));
    out.append("<form id=\"filters\" class=\"filters\" method=\"get\" action=\"/\">")
        .append("<label>State ");
    select("state", ListFilter.STATES, filter.state(), out);
    out.append("</label> <label>Schedule ");
    select("schedule", ListFilter.SCHEDULES, filter.schedule(), out);
    out.append("</label> <label>Kernel <input type=\"search\" name=\"kernel\" maxlength=\"")
        .append(ListFilter.KERNEL_MAX).append("\" placeholder=\"part of a name or path\" value=\"")
        .append(esc(filter.kernel())).append("\"></label> <button type=\"submit\">Filter</button>")
        .append(filter.any() ? " <a href=\"/\">Clear</a>" : "").append("</form>\n");
  }

  private static void select(String name, List<String> values, String chosen, StringBuilder out) {
    out.append("<select name=\"").append(name).append("\"><option value=\"\">any</option>");
    for (String v : values) {
      out.append("<option").append(v.equals(chosen) ? " selected" : "").append('>').append(v)
          .append("</option>");
    }
    out.append("</select>");
  }

  private static void running(List<Experiment> list, StringBuilder out) {
    out.append("<h2>Running</h2>\n");
    if (list.isEmpty()) {
      out.append("<p>None.</p>\n");
      return;
    }
    out.append("<table id=\"running\">\n<caption>Running experiments</caption>\n<thead><tr>")
        .append("<th scope=\"col\">Experiment</th><th scope=\"col\">Name</th>")
        .append("<th scope=\"col\">Pairs done</th><th scope=\"col\">Look</th>")
        .append("<th scope=\"col\">ETA</th><th scope=\"col\">Gating metrics so far</th>")
        .append("</tr></thead>\n<tbody>\n");
    for (Experiment e : list) {
      row(e, out);
      out.append("<td class=\"pairs\" data-pairs-done=\"").append(e.getPairsDone()).append("\">")
          .append(e.getPairsDone()).append(" / ").append(e.getPairsWanted())
          .append(" <progress max=\"").append(Math.max(1, e.getPairsWanted())).append("\" value=\"")
          .append(e.getPairsDone()).append("\">").append(e.getPairsDone()).append("</progress></td>")
          .append("<td class=\"left\">").append(esc(ExperimentFacts.look(e))).append("</td>")
          .append("<td>").append(esc(ExperimentFacts.eta(e))).append("</td>")
          .append("<td class=\"left interim\">").append(interim(e)).append("</td></tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  private static void queued(List<Experiment> list, StringBuilder out) {
    out.append("<h2>Queued</h2>\n");
    if (list.isEmpty()) {
      out.append("<p>None.</p>\n");
      return;
    }
    out.append("<table id=\"queued\">\n<caption>Experiments waiting for a host</caption>\n")
        .append("<thead><tr><th scope=\"col\">Experiment</th><th scope=\"col\">Name</th>")
        .append("<th scope=\"col\">Place in line</th><th scope=\"col\">Pairs done</th>")
        .append("</tr></thead>\n<tbody>\n");
    for (Experiment e : list) {
      row(e, out);
      out.append("<td>").append(ExperimentFacts.ordinal(e.getQueuePosition())).append("</td><td>")
          .append(e.getPairsDone()).append(" / ").append(e.getPairsWanted()).append("</td></tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  private static void done(List<Experiment> list, StringBuilder out) {
    out.append("<h2>Finished</h2>\n");
    if (list.isEmpty()) {
      out.append("<p>None yet.</p>\n");
      return;
    }
    out.append("<table id=\"done\" class=\"compact\">\n<caption>Finished experiments, newest")
        .append(" first</caption>\n")
        .append("<thead><tr><th scope=\"col\">Experiment</th><th scope=\"col\">Name</th>")
        .append("<th scope=\"col\">State</th><th scope=\"col\">Pairs</th>")
        .append("<th scope=\"col\">Verdict</th><th scope=\"col\">Gating metrics</th>")
        .append("</tr></thead>\n<tbody>\n");
    for (Experiment e : list) {
      String overall = ExperimentFacts.overall(e);
      row(e, out);
      out.append("<td class=\"left\">").append(esc(e.getState())).append("</td><td>")
          .append(e.getPairsDone()).append(" / ").append(e.getPairsWanted()).append("</td>")
          .append("<td class=\"left\"><span class=\"verdict ").append(esc(overall)).append("\">")
          .append(esc(ExperimentFacts.overallLabel(e))).append("</span></td>")
          .append("<td class=\"left\">").append(finals(e)).append("</td></tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  /** Each gating metric's final estimate, on one line: a finished row stays one line high. */
  private static String finals(Experiment e) {
    boolean arms = e.getSpec().getArmsCount() > 2;
    return String.join("; ", ExperimentFacts.estimates(e).stream()
        .map(x -> esc(x.text(arms))).toList());
  }

  /**
   * Each gating metric's estimate so far, a line each, with its interval when there is one
   * (a one-sided bound too: "≥ +4.0%"), marked as interim.
   */
  static String interim(Experiment e) {
    boolean arms = e.getSpec().getArmsCount() > 2;
    return String.join("<br>", ExperimentFacts.estimates(e).stream()
        .map(x -> esc(x.metric() + (arms ? " (" + x.arm() + ")" : "") + " "
            + Numbers.percent(x.change()) + interval(x.ciLow(), x.ciHigh()) + " so far"))
        .toList());
  }

  /** " [lo, hi]", " [≥ lo]", " [≤ hi]" or "" as the bounds are finite. */
  static String interval(double lo, double hi) {
    boolean low = Double.isFinite(lo);
    boolean high = Double.isFinite(hi);
    if (low && high) {
      return " " + Numbers.interval(lo, hi);
    }
    if (low) {
      return " [≥ " + Numbers.percent(lo) + "]";
    }
    return high ? " [≤ " + Numbers.percent(hi) + "]" : "";
  }

  /**
   * Opens the row with the experiment's id (a link to its page) and name, and a SIMULATION badge
   * when it runs on sim hosts.
   */
  private static void row(Experiment e, StringBuilder out) {
    String id = e.getExperimentId();
    out.append("<tr id=\"experiment-").append(esc(id)).append("\"><th scope=\"row\"><a href=\"/experiments/")
        .append(esc(id)).append("\">").append(esc(id)).append("</a></th><td class=\"left\">")
        .append(esc(e.getSpec().getName()));
    if (ProtoReports.simulation(e)) {
      out.append(" <span class=\"badge simulation\" title=\"").append(esc(SIM_TITLE))
          .append("\">SIMULATION</span>");
    }
    out.append("</td>");
  }
}
