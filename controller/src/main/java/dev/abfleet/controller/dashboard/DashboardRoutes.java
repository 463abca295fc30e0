package dev.abfleet.controller.dashboard;

import dev.abfleet.controller.experiment.ExperimentIds;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.Uri;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.HttpCookiePair;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.model.headers.SameSite;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's routes. Pages: {@code /} (filtered by {@code ?state=&schedule=&kernel=}, see
 * {@link ListFilter}), {@code /experiments/ID}, {@code /hosts} (and
 * {@code /nightly} when a {@link NightlyPage} is given); JSON: {@code /api/experiments},
 * {@code /api/experiments/ID}, {@code /api/hosts}, {@code /api/nightly/series}. Every one needs what /metrics needs:
 * {@code allowed} decides from an Authorization header (empty = none sent). A browser that
 * cannot send the header logs in at {@code /login} with a read token, which is kept in an
 * HttpOnly, SameSite=Strict cookie (Secure over HTTPS) and checked on each request like the
 * header.
 */
final class DashboardRoutes extends AllDirectives {
  private static final Logger log = LoggerFactory.getLogger(DashboardRoutes.class);
  static final String COOKIE = "abfleet_token";
  /** Characters of an API token; anything else cannot be one (and cannot go in a cookie). */
  private static final java.util.regex.Pattern TOKEN_CHARS =
      java.util.regex.Pattern.compile("[A-Za-z0-9_.\\-]{1,200}");

  /** Scripts and styles only inline, requests only to this controller, no framing. */
  private static final List<HttpHeader> SECURITY_HEADERS = List.of(
      RawHeader.create("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline';"
          + " style-src 'unsafe-inline'; img-src data:; connect-src 'self'; form-action 'self';"
          + " frame-ancestors 'none'; base-uri 'none'"),
      RawHeader.create("X-Content-Type-Options", "nosniff"),
      RawHeader.create("Referrer-Policy", "no-referrer"),
      RawHeader.create("Cache-Control", "no-store"));

  private final FleetReader fleet;
  private final Predicate<Optional<String>> allowed;
  private final boolean https;
  private final Optional<NightlyPage> nightly;

  DashboardRoutes(FleetReader fleet, Predicate<Optional<String>> allowed, boolean https,
      Optional<NightlyPage> nightly) {
    this.fleet = fleet;
    this.allowed = allowed;
    this.https = https;
    this.nightly = nightly;
  }

  Route route() {
    return respondWithHeaders(SECURITY_HEADERS, () -> concat(
        path("login", () -> concat(
            get(() -> complete(html(StatusCodes.OK, LoginPage.render("")))),
            post(() -> formField("token", this::login)))),
        pathPrefix("api", () -> authorized(true, () -> concat(
            path("experiments", () -> get(() -> completeWithFuture(experimentsJson()))),
            path(PathMatchers.segment("experiments").slash(PathMatchers.segment()),
                id -> get(() -> completeWithFuture(experimentJson(id)))),
            path("hosts", () -> get(() -> completeWithFuture(answer(fleet.hosts(),
                hosts -> json(StatusCodes.OK, DashboardJson.hosts(hosts)))))),
            path(PathMatchers.segment("nightly").slash("series"),
                () -> get(() -> parameterMap(this::seriesJson)))))),
        authorized(false, () -> concat(
            pathSingleSlash(() -> get(() -> parameterMap(query ->
                completeWithFuture(experimentsPage(ListFilter.parse(query)))))),
            path("hosts", () -> get(() -> completeWithFuture(answer(fleet.hosts(),
                hosts -> html(StatusCodes.OK, HostsPage.render(hosts, nightly.isPresent())))))),
            path(PathMatchers.segment("experiments").slash(PathMatchers.segment()),
                id -> get(() -> completeWithFuture(experimentPage(id)))),
            path("nightly", () -> get(() -> nightly.isEmpty()
                ? complete(html(StatusCodes.NOT_FOUND, notFound("no nightly schedules on this"
                    + " controller")))
                // Not live: the series changes once a night, and each load runs the change-point
                // scans (999 permutations per gating metric) that a 2 s refresh would repeat.
                : completeWithFuture(answer(nightly.get().mainHtml(), main -> html(StatusCodes.OK,
                    DashboardPage.page("abfleet: nightly", DashboardPage.Section.NIGHTLY, true,
                        false, main))))))))));
  }

  /** {@code /api/nightly/series?schedule=S&metric=M[&series=center|change]}; 400 naming what is missing. */
  private Route seriesJson(java.util.Map<String, String> query) {
    String schedule = query.getOrDefault("schedule", "");
    String metric = query.getOrDefault("metric", "");
    String series = query.getOrDefault("series", "center");
    if (nightly.isEmpty()) {
      return complete(json(StatusCodes.NOT_FOUND, DashboardJson.error("no nightly schedules on this controller")));
    }
    if (schedule.isEmpty() || metric.isEmpty() || !(series.equals("center") || series.equals("change"))) {
      return complete(json(StatusCodes.BAD_REQUEST, DashboardJson.error("expected ?schedule=NAME&metric=METRIC"
          + "[&series=center|change], e.g. ?schedule=nightly&metric=metadata_stat")));
    }
    return completeWithFuture(answer(nightly.get().seriesJson(schedule, metric, series), found -> found
        .map(body -> json(StatusCodes.OK, body))
        .orElseGet(() -> json(StatusCodes.NOT_FOUND, DashboardJson.error("no schedule '" + schedule
            + "' and no runs of it")))));
  }

  /** The inner route when the request's header or login cookie may read; 401 otherwise. */
  private Route authorized(boolean api, Supplier<Route> inner) {
    return optionalHeaderValueByName("Authorization", header -> optionalCookie(COOKIE, cookie -> {
      Optional<String> credentials = header.isPresent() ? header
          : cookie.map(HttpCookiePair::value).map(t -> "Bearer " + t);
      if (allowed.test(credentials)) {
        return inner.get();
      }
      String why = credentials.isEmpty()
          ? "the dashboard needs an API token with the read role"
          : "that token may not read this controller (unknown, revoked, or below role read)";
      return complete(api
          ? json(StatusCodes.UNAUTHORIZED, DashboardJson.error(why
              + ": send Authorization: Bearer <token>"))
          : html(StatusCodes.UNAUTHORIZED, LoginPage.render(why + ".")));
    }));
  }

  private Route login(String token) {
    String t = token.strip();
    if (!TOKEN_CHARS.matcher(t).matches() || !allowed.test(Optional.of("Bearer " + t))) {
      return complete(html(StatusCodes.UNAUTHORIZED, LoginPage.render("That token was not"
          + " accepted: it must be an API token with the read role (abfleet tokens create"
          + " --role read).")));
    }
    HttpCookie cookie = HttpCookie.create(COOKIE, t).withPath("/").withHttpOnly(true)
        .withSecure(https).withSameSite(SameSite.Strict);
    return setCookie(cookie, () -> redirect(Uri.create("/"), StatusCodes.SEE_OTHER));
  }

  /** A query that is no filter answers 400 with the whole list and what to fix. */
  private CompletionStage<HttpResponse> experimentsPage(ListFilter.Parsed query) {
    return answer(fleet.experiments(), list -> html(
        query.error().isPresent() ? StatusCodes.BAD_REQUEST : StatusCodes.OK,
        ExperimentsPage.render(list, fleet.canList(), nightly.isPresent(), query.filter(),
            query.error())));
  }

  private CompletionStage<HttpResponse> experimentsJson() {
    return answer(fleet.experiments(),
        list -> json(StatusCodes.OK, DashboardJson.experiments(list, fleet.canList())));
  }

  private CompletionStage<HttpResponse> experimentPage(String id) {
    return answer(fleet.experiment(id), found -> found
        .map(e -> html(StatusCodes.OK, ExperimentPage.render(e, nightly.isPresent())))
        .orElseGet(() -> html(StatusCodes.NOT_FOUND, notFound(unknown(id)))));
  }

  private CompletionStage<HttpResponse> experimentJson(String id) {
    return answer(fleet.experiment(id), found -> found
        .map(e -> json(StatusCodes.OK, DashboardJson.experiment(e).toString()))
        .orElseGet(() -> json(StatusCodes.NOT_FOUND, DashboardJson.error(unknown(id)))));
  }

  /** Why {@code id} names no experiment, and where to find the ones there are. */
  static String unknown(String id) {
    return ExperimentIds.check("experiment id", id)
        .map(problem -> problem + "; the experiments are listed at /")
        .orElse("no experiment '" + id + "' on this controller; the experiments are listed at /"
            + " (or with abfleet experiments list)");
  }

  private String notFound(String message) {
    return DashboardPage.page("abfleet: not found", null, nightly.isPresent(), false,
        "<h1>Not found</h1>\n<p>" + DashboardPage.esc(message) + "</p>\n");
  }

  /**
   * {@code ok} of the answer; a controller that cannot answer in time (an actor's ask timed
   * out, the store is down) is 503 with the reason, never a stack trace.
   */
  private static <T> CompletionStage<HttpResponse> answer(CompletionStage<T> stage,
      Function<T, HttpResponse> ok) {
    return stage.handle((value, failure) -> {
      if (failure == null) {
        return ok.apply(value);
      }
      Throwable cause = failure instanceof java.util.concurrent.CompletionException
          && failure.getCause() != null ? failure.getCause() : failure;
      log.warn("dashboard: cannot answer: {}", cause.toString());
      return HttpResponse.create().withStatus(StatusCodes.SERVICE_UNAVAILABLE)
          .withEntity("the controller cannot answer now (" + cause.getMessage()
              + "); reload in a few seconds\n");
    });
  }

  private static HttpResponse html(StatusCode status, String page) {
    return HttpResponse.create().withStatus(status).withEntity(HttpEntities.create(
        ContentTypes.TEXT_HTML_UTF8, page.getBytes(StandardCharsets.UTF_8)));
  }

  private static HttpResponse json(StatusCode status, String body) {
    return HttpResponse.create().withStatus(status).withEntity(HttpEntities.create(
        ContentTypes.APPLICATION_JSON, body.getBytes(StandardCharsets.UTF_8)));
  }
}
