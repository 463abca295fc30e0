package dev.abfleet.controller.dashboard;

import dev.abfleet.controller.report.ExperimentFacts;

import static dev.abfleet.controller.dashboard.DashboardPage.esc;

import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.List;

/**
 * The front page: running experiments with their progress, queued ones with their place in
 * line, finished ones with their verdict; each links to its report.
 */
final class ExperimentsPage {
  private ExperimentsPage() {}

  static String render(List<Experiment> experiments, boolean listable, boolean nightly) {
    StringBuilder main = new StringBuilder("<h1>Experiments</h1>\n");
    if (!listable) {
      main.append("<p>This controller keeps its journal in memory, which cannot be listed; run it"
          + " with an H2 or PostgreSQL store to see experiments here. An experiment's page,"
          + " /experiments/ID, works either way.</p>\n");
    }
    List<Experiment> running = experiments.stream()
        .filter(e -> ExperimentFacts.running(e) && !ExperimentFacts.queued(e)).toList();
    List<Experiment> queued = experiments.stream().filter(ExperimentFacts::queued)
        .sorted(java.util.Comparator.comparingInt(Experiment::getQueuePosition)).toList();
    List<Experiment> done = experiments.stream().filter(e -> !ExperimentFacts.running(e)).toList();
    running(running, main);
    queued(queued, main);
    done(done, main);
    return DashboardPage.page("abfleet: experiments (" + running.size() + " running, "
        + queued.size() + " queued)", DashboardPage.Section.EXPERIMENTS, nightly, true,
        main.toString());
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
          .append("<td class=\"left\">").append(estimates(e)).append("</td></tr>\n");
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
    out.append("<table id=\"done\">\n<caption>Finished experiments, newest first</caption>\n")
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
          .append("<td class=\"left\">").append(estimates(e)).append("</td></tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  /** Each gating metric's estimate on a line of its own (a print-friendly list). */
  private static String estimates(Experiment e) {
    boolean arms = e.getSpec().getArmsCount() > 2;
    return String.join("<br>", ExperimentFacts.estimates(e).stream()
        .map(x -> esc(x.text(arms))).toList());
  }

  /** Opens the row with the experiment's id (a link to its page) and name. */
  private static void row(Experiment e, StringBuilder out) {
    String id = e.getExperimentId();
    out.append("<tr id=\"experiment-").append(esc(id)).append("\"><th scope=\"row\"><a href=\"/experiments/")
        .append(esc(id)).append("\">").append(esc(id)).append("</a></th><td class=\"left\">")
        .append(esc(e.getSpec().getName())).append("</td>");
  }
}
