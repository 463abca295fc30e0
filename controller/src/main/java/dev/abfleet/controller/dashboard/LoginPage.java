package dev.abfleet.controller.dashboard;

/** The form a browser logs in with when the controller checks API tokens. */
final class LoginPage {
  private LoginPage() {}

  /** @param message why the form is shown (empty = just asked for) */
  static String render(String message) {
    StringBuilder main = new StringBuilder("<h1>Log in</h1>\n");
    if (!message.isEmpty()) {
      main.append("<p role=\"alert\">").append(DashboardPage.esc(message)).append("</p>\n");
    }
    main.append("<p>This controller checks API tokens. Paste a token with the read role (or"
            + " more); it is kept in a cookie only this browser sends, only to this dashboard.</p>\n")
        .append("<form method=\"post\" action=\"/login\">\n")
        .append("<label for=\"token\">API token</label>\n")
        .append("<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"off\" required>\n")
        .append("<button type=\"submit\">Log in</button>\n</form>\n");
    return DashboardPage.page("abfleet: log in", null, false, false, main.toString());
  }
}
