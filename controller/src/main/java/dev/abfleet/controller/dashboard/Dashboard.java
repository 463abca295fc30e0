package dev.abfleet.controller.dashboard;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.ConnectionContext;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;

/**
 * The controller's web dashboard (see {@link DashboardRoutes} for its pages), served over HTTP,
 * or HTTPS with the controller's TLS context when it serves gRPC over TLS: a token or its
 * cookie must not cross the network in clear.
 */
public final class Dashboard implements AutoCloseable {
  private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);

  private final ServerBinding binding;

  private Dashboard(ServerBinding binding) {
    this.binding = binding;
  }

  /**
   * Binds {@code host:port} (0 = ephemeral) and serves until closed.
   *
   * @param allowed whether a request with this Authorization header (empty = none) may read
   * @param nightly the Nightly page, when the controller has nightly schedules
   * @throws IllegalStateException if the port cannot be bound
   */
  public static Dashboard start(ActorSystem<?> system, String host, int port, FleetReader fleet,
      Predicate<Optional<String>> allowed, Optional<SSLContext> tls,
      Optional<NightlyPage> nightly) {
    var route = new DashboardRoutes(fleet, allowed, tls.isPresent(), nightly).route();
    try {
      var server = Http.get(system).newServerAt(host, port);
      if (tls.isPresent()) {
        server = server.enableHttps(ConnectionContext.httpsServer(tls.get()));
      }
      return new Dashboard(server.bind(route).toCompletableFuture()
          .get(BIND_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while binding the dashboard on " + host + ":"
          + port, e);
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException("cannot serve the dashboard on " + host + ":" + port + ": "
          + cause.getMessage() + "; set controller.dashboard_port (--dashboard-port) to a free"
          + " port, or 0 to turn it off", cause);
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
}
