package dev.abfleet.controller.dashboard;

import dev.abfleet.report.HtmlStyle;
import dev.abfleet.report.HtmlText;

/**
 * The frame every dashboard page shares: the HTML report's style sheet (so the dashboard and a
 * report look alike and print alike), a navigation bar, and one small inlined script for live
 * updates. The pages are complete without the script; with it, the {@code <main id="live">} of
 * a live page is replaced every {@link #POLL_MS} by the same element of a fresh copy of the
 * page, until a copy says it is no longer live (an experiment that ended). Nothing is fetched
 * from anywhere but this controller (see the Content-Security-Policy of {@link DashboardRoutes}).
 */
final class DashboardPage {
  /** How often a live page refreshes itself. */
  static final int POLL_MS = 2000;

  private static final String EXTRA_CSS = """
      nav.dashboard { display: flex; gap: 1.2em; border-bottom: 1px solid #bbb;
        padding-bottom: 0.4em; }
      nav.dashboard a[aria-current=page] { font-weight: 600; text-decoration: none; color: #111; }
      td.left, th.left { text-align: left; }
      .state.quarantined, .state.offline { color: #b00020; font-weight: 600; }
      .state.draining, .state.noisy { color: #8a5a00; }
      .muted { color: #555; }
      /* Engineers keep the dashboard open on wide screens: use the width. */
      body { max-width: none; margin: 1em 1.5em; }
      .badge { display: inline-block; font-size: 0.75em; font-weight: 600; padding: 0 0.4em;
        border-radius: 0.3em; vertical-align: middle; }
      .badge.simulation { color: #fff; background: #b00020; }
      form.filters { margin: 0.6em 0; display: flex; flex-wrap: wrap; gap: 0.4em 1em;
        align-items: center; }
      table.compact td, table.compact th { padding-top: 0.1em; padding-bottom: 0.1em;
        white-space: nowrap; }
      table.compact td:last-child { white-space: normal; }
      @media print { nav.dashboard, #live-status, form.filters { display: none; } }
      """;

  /**
   * Refreshes #live from a fresh copy of this page; stops when the copy is not live. Writes
   * nothing to the console: a failed fetch is shown in #live-status and retried.
   */
  static final String LIVE_SCRIPT = """
      <script>
      (function () {
        if (document.body.dataset.live !== 'true') { return; }
        var status = document.getElementById('live-status');
        var timer = setInterval(function () {
          fetch(location.href, {credentials: 'same-origin', headers: {'Accept': 'text/html'}})
            .then(function (r) {
              if (!r.ok) { throw new Error('HTTP ' + r.status); }
              return r.text();
            })
            .then(function (text) {
              var next = new DOMParser().parseFromString(text, 'text/html');
              var fresh = next.getElementById('live');
              var main = document.getElementById('live');
              if (fresh && main) {
                main.replaceWith(document.importNode(fresh, true));
                document.title = next.title;
              }
              if (status) { status.textContent = 'Live: updated ' + new Date().toLocaleTimeString(); }
              if (next.body.dataset.live !== 'true') {
                clearInterval(timer);
                document.body.dataset.live = 'false';
                if (status) { status.textContent = 'Finished.'; }
              }
            })
            .catch(function (err) {
              if (status) { status.textContent = 'Live updates paused (' + err.message + '); retrying.'; }
            });
        }, %d);
      })();
      </script>
      """.formatted(POLL_MS);

  /** Which page a nav link leads to. */
  enum Section {
    EXPERIMENTS("/", "Experiments"),
    HOSTS("/hosts", "Hosts"),
    NIGHTLY("/nightly", "Nightly");

    final String href;
    final String label;

    Section(String href, String label) {
      this.href = href;
      this.label = label;
    }
  }

  private DashboardPage() {}

  /**
   * A whole page.
   *
   * @param current the nav entry to mark; null = none (a report, the login form)
   * @param nightly whether the Nightly link is shown (the controller has schedules)
   * @param live whether the page refreshes itself
   * @param main the content of {@code <main id="live">}
   */
  static String page(String title, Section current, boolean nightly, boolean live, String main) {
    StringBuilder out = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n")
        .append("<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        // No favicon request: a 404 there would be the page's only network error.
        .append("<link rel=\"icon\" href=\"data:,\">\n")
        .append("<title>").append(esc(title)).append("</title>\n<style>\n").append(HtmlStyle.CSS)
        .append(EXTRA_CSS).append("</style>\n</head>\n<body data-live=\"").append(live)
        .append("\">\n");
    nav(out, current, nightly);
    out.append("<main id=\"live\">\n").append(main).append("</main>\n");
    if (live) {
      out.append("<p id=\"live-status\" class=\"muted\" role=\"status\">Live: refreshes every ")
          .append(POLL_MS / 1000).append(" s.</p>\n").append(LIVE_SCRIPT);
    }
    return out.append("</body>\n</html>\n").toString();
  }

  static void nav(StringBuilder out, Section current, boolean nightly) {
    out.append("<nav class=\"dashboard\" aria-label=\"dashboard\">");
    for (Section s : Section.values()) {
      if (s == Section.NIGHTLY && !nightly) {
        continue;
      }
      out.append("<a href=\"").append(s.href).append('"')
          .append(s == current ? " aria-current=\"page\"" : "").append('>').append(s.label)
          .append("</a>");
    }
    out.append("</nav>\n");
  }

  static String esc(String s) {
    return HtmlText.escape(s);
  }
}
