package dev.abfleet.controller.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.pekko.actor.typed.ActorSystem;
import javax.net.ssl.SSLContext;
import org.apache.pekko.http.javadsl.ConnectionContext;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Serves {@link ControllerMetrics} as Prometheus text at {@code GET /metrics} over HTTP (HTTPS
 * when the controller serves TLS).
 * Who may scrape is decided by {@code allowed}, given the request's Authorization header
 * (empty = none sent); {@link #ALLOW_ALL} until API tokens are wired in (a {@code read} token).
 */
public final class MetricsEndpoint implements AutoCloseable {
  /** Every scraper may read; the default while the controller has no API tokens. */
  public static final Predicate<Optional<String>> ALLOW_ALL = header -> true;

  private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);

  private final ServerBinding binding;

  private MetricsEndpoint(ServerBinding binding) {
    this.binding = binding;
  }

  /**
   * Binds {@code host:port} (0 = ephemeral) and serves until closed.
   *
   * @throws IllegalStateException if the port cannot be bound
   */
  public static MetricsEndpoint start(ActorSystem<?> system, String host, int port,
      ControllerMetrics metrics, Predicate<Optional<String>> allowed) {
    return start(system, host, port, metrics, allowed, Optional.empty());
  }

  /**
   * As {@link #start(ActorSystem, String, int, ControllerMetrics, Predicate)}, over HTTPS with
   * {@code tls} when present (a controller serving gRPC over TLS: a scrape's token must not
   * cross the network in clear).
   */
  public static MetricsEndpoint start(ActorSystem<?> system, String host, int port,
      ControllerMetrics metrics, Predicate<Optional<String>> allowed, Optional<SSLContext> tls) {
    Route route = new Routes(metrics, allowed).route();
    try {
      var server = Http.get(system).newServerAt(host, port);
      if (tls.isPresent()) {
        server = server.enableHttps(ConnectionContext.httpsServer(tls.get()));
      }
      ServerBinding binding = server.bind(route)
          .toCompletableFuture().get(BIND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      return new MetricsEndpoint(binding);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while binding /metrics on " + host + ":" + port, e);
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException("cannot serve /metrics on " + host + ":" + port + ": "
          + cause.getMessage() + "; set controller.metrics_port to a free port, or 0 to turn it off",
          cause);
    }
  }

  /** The bound port (the chosen one when 0 was asked). */
  public int port() {
    return binding.localAddress().getPort();
  }

  @Override
  public void close() {
    binding.unbind();
  }

  /** The route alone, so it can be tested without a socket. */
  static final class Routes extends AllDirectives {
    private static final ContentType PROMETHEUS_TEXT =
        ContentTypes.parse(ControllerMetrics.contentType());

    private final ControllerMetrics metrics;
    private final Predicate<Optional<String>> allowed;

    Routes(ControllerMetrics metrics, Predicate<Optional<String>> allowed) {
      this.metrics = metrics;
      this.allowed = allowed;
    }

    Route route() {
      return path("metrics", () -> get(() -> optionalHeaderValueByName("Authorization",
          header -> allowed.test(header)
              ? onSuccess(metrics.scrape(), text -> complete(HttpResponse.create().withEntity(
                  HttpEntities.create(PROMETHEUS_TEXT, text.getBytes(StandardCharsets.UTF_8)))))
              : complete(HttpResponse.create().withStatus(StatusCodes.UNAUTHORIZED)
                  .withEntity("/metrics needs an API token with the read role:"
                      + " send Authorization: Bearer <token>\n")))));
    }
  }
}
