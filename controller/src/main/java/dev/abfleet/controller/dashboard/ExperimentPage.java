package dev.abfleet.controller.dashboard;

import dev.abfleet.controller.report.ExperimentFacts;

import static dev.abfleet.controller.dashboard.DashboardPage.esc;

import dev.abfleet.controller.report.ProtoReports;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.HtmlReport;

/**
 * One experiment: the same self-contained HTML report {@code abfleet report --format html}
 * writes, rendered here from the controller's view, under a status line; while the experiment
 * runs the page is live and refreshes itself.
 */
final class ExperimentPage {
  private ExperimentPage() {}

  static String render(Experiment e, boolean nightly) {
    String report = HtmlReport.render(ProtoReports.of(e));
    String title = between(report, "<title>", "</title>");
    String body = between(report, "<body>\n", "</body>");
    StringBuilder main = new StringBuilder("<p class=\"status\" id=\"status\">")
        .append(esc(status(e))).append("</p>\n").append(body);
    // The report's title is already escaped: it is passed through as it came.
    return DashboardPage.page("", null, nightly, ExperimentFacts.running(e), main.toString())
        .replace("<title></title>", "<title>" + title + "</title>");
  }

  /** "running: pairs 4/10, look 1 of 2 at 5 pairs, ETA 12s" or "completed: 10/10 pairs". */
  static String status(Experiment e) {
    StringBuilder sb = new StringBuilder(e.getState()).append(": ");
    if (ExperimentFacts.queued(e)) {
      sb.append("queued, ").append(ExperimentFacts.ordinal(e.getQueuePosition()))
          .append(" in line for a host; ");
    }
    sb.append("pairs ").append(e.getPairsDone()).append('/').append(e.getPairsWanted());
    String look = ExperimentFacts.look(e);
    if (!look.isEmpty()) {
      sb.append(", ").append(look);
    }
    String eta = ExperimentFacts.eta(e);
    if (!eta.isEmpty()) {
      sb.append(", ETA ").append(eta);
    }
    if (!e.getMessage().isEmpty()) {
      sb.append("; ").append(e.getMessage());
    }
    return sb.toString();
  }

  private static String between(String text, String open, String close) {
    int start = text.indexOf(open);
    int end = text.indexOf(close, start + open.length());
    if (start < 0 || end < 0) {
      throw new IllegalStateException("the HTML report has no " + open + "..." + close);
    }
    return text.substring(start + open.length(), end);
  }
}
