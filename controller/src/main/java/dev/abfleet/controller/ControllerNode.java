package dev.abfleet.controller;

import dev.abfleet.controller.artifact.ArtifactServiceImpl;
import dev.abfleet.controller.artifact.ArtifactStore;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.controller.bisect.BisectCatalog;
import dev.abfleet.controller.bisect.BisectEntity;
import dev.abfleet.controller.build.BuildEntity;
import dev.abfleet.controller.dashboard.Dashboard;
import dev.abfleet.controller.dashboard.FleetReader;
import dev.abfleet.controller.dashboard.NightlySeriesPage;
import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.grpc.BisectServiceImpl;
import dev.abfleet.controller.grpc.BuildServiceImpl;
import dev.abfleet.controller.grpc.CallLimiter;
import dev.abfleet.controller.grpc.ExperimentServiceImpl;
import dev.abfleet.controller.grpc.FleetServiceImpl;
import dev.abfleet.controller.grpc.NightlyServiceImpl;
import dev.abfleet.controller.grpc.NoiseServiceImpl;
import dev.abfleet.controller.grpc.ShardedExperiments;
import dev.abfleet.controller.grpc.WorkerServiceImpl;
import dev.abfleet.controller.http.ControllerMetrics;
import dev.abfleet.controller.http.LostMessages;
import dev.abfleet.controller.http.MetricsEndpoint;
import dev.abfleet.controller.http.SchedulerGauges;
import dev.abfleet.controller.nightly.Nightly;
import dev.abfleet.controller.nightly.NightlySettings;
import dev.abfleet.controller.noise.LedgerAaNoise;
import dev.abfleet.controller.noise.NoiseLedger;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.security.AuthServiceImpl;
import dev.abfleet.controller.security.CallerInterceptor;
import dev.abfleet.controller.security.InMemoryTokenStore;
import dev.abfleet.controller.security.JdbcTokenStore;
import dev.abfleet.controller.security.Security;
import dev.abfleet.controller.security.ClusterTls;
import dev.abfleet.controller.security.ServerTls;
import dev.abfleet.controller.security.TokenBootstrap;
import dev.abfleet.controller.security.TokenStore;
import dev.abfleet.controller.store.EventStore;
import dev.abfleet.controller.store.StoreHealth;
import dev.abfleet.controller.store.StoreSchema;
import dev.abfleet.controller.store.StoreWatchdog;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.SingletonActor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One controller node: a Pekko cluster member running the scheduler singleton and experiment
 * shards, plus the gRPC server for workers and clients. A single node is a one-node cluster.
 */
public final class ControllerNode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ControllerNode.class);
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);
  /** How often the store is probed, and how long a failure that may pass is waited out. */
  private static final Duration STORE_PROBE = Duration.ofSeconds(1);
  private static final Duration STORE_GRACE = Duration.ofSeconds(30);

  private final ActorSystem<Void> system;
  private final Server server;
  private final TokenStore tokens;
  private final ControllerMetrics metrics;
  private final MetricsEndpoint metricsEndpoint;
  private final Dashboard dashboard;
  private final String inProcessName;
  // Null when the journal is in memory.
  private final StoreWatchdog watchdog;

  private ControllerNode(ActorSystem<Void> system, Server server, TokenStore tokens,
      ControllerMetrics metrics, MetricsEndpoint metricsEndpoint, Dashboard dashboard, String inProcessName,
      StoreWatchdog watchdog) {
    this.inProcessName = inProcessName;
    this.watchdog = watchdog;
    this.system = system;
    this.server = server;
    this.tokens = tokens;
    this.metrics = metrics;
    this.metricsEndpoint = metricsEndpoint;
    this.dashboard = dashboard;
  }

  /**
   * Starts the node and returns once it is an Up cluster member serving gRPC.
   *
   * @throws IllegalStateException if the store, the cluster or the gRPC port cannot be set up
   */
  public static ControllerNode start(ControllerSettings settings) {
    return start(settings, ArtifactStoreSettings.defaults(), ClusterFormation.seedNodes());
  }

  /** As {@link #start(ControllerSettings)}, with the artifact store at {@code artifacts}. */
  public static ControllerNode start(ControllerSettings settings, ArtifactStoreSettings artifacts) {
    return start(settings, artifacts, ClusterFormation.seedNodes());
  }

  /** As {@link #start(ControllerSettings)}, finding the other nodes as {@code formation} says. */
  public static ControllerNode start(ControllerSettings settings, ClusterFormation formation) {
    return start(settings, ArtifactStoreSettings.defaults(), formation);
  }

  /**
   * Starts the node with the artifact store at {@code artifacts}, finding the other nodes as
   * {@code formation} says, and returns once it is an Up cluster member serving gRPC.
   *
   * @throws IllegalStateException if the store, the cluster, the management port or the gRPC port
   *     cannot be set up
   */
  public static ControllerNode start(ControllerSettings settings, ArtifactStoreSettings artifacts,
      ClusterFormation formation) {
    return start(settings, artifacts, formation, MetricsEndpoint.ALLOW_ALL);
  }

  /**
   * As {@link #start(ControllerSettings, ArtifactStoreSettings, ClusterFormation)}, with
   * {@code metricsAccess} deciding from a scrape's Authorization header (empty = none sent)
   * whether it may read /metrics.
   */
  public static ControllerNode start(ControllerSettings settings, ArtifactStoreSettings artifacts,
      ClusterFormation formation, Predicate<Optional<String>> metricsAccess) {
    return start(settings, artifacts, formation, metricsAccess, null);
  }

  /**
   * A node whose gRPC services are served in this JVM only, under {@code name}
   * ({@code InProcessChannelBuilder.forName(name)} reaches them): for tests of the services and
   * the actors behind them, without sockets. Everything else is as {@link #start(ControllerSettings)}.
   */
  public static ControllerNode startInProcess(ControllerSettings settings, String name) {
    return start(settings, ArtifactStoreSettings.defaults(), ClusterFormation.seedNodes(), MetricsEndpoint.ALLOW_ALL,
        name);
  }

  private static ControllerNode start(ControllerSettings settings, ArtifactStoreSettings artifacts,
      ClusterFormation formation, Predicate<Optional<String>> metricsAccess, String inProcessName) {
    boolean jdbc = settings.store() == ControllerSettings.Store.JDBC;
    Security security = settings.security();
    security.checkBind(settings.grpcHost());
    ClusterExposure.check(settings);
    if (security.transport() instanceof Security.Tls t) {
      ClusterTls.checkNodeCertificate(t);
    }
    // TLS files are checked before anything starts: a typo should not cost a cluster join.
    var tls = security.transport() instanceof Security.Tls t ? ServerTls.context(t) : null;
    Optional<javax.net.ssl.SSLContext> https = security.transport() instanceof Security.Tls t
        ? Optional.of(ServerTls.jdkContext(t)) : Optional.empty();
    // A store this build cannot read is refused before anything starts.
    OptionalInt schemaFound = jdbc ? EventStore.schemaVersion(settings) : OptionalInt.empty();
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), PekkoConfig.SYSTEM_NAME,
        formation.config(settings).withFallback(PekkoConfig.of(settings)));
    TokenStore tokens = null;
    // First, so a message lost while the node starts is counted too.
    ControllerMetrics metrics = new ControllerMetrics();
    system.systemActorOf(LostMessages.create(metrics), "lost-messages", Props.empty());
    try {
      if (jdbc && StoreSchema.plan(schemaFound, EventStore.name(settings)) == StoreSchema.Plan.CREATE) {
        EventStore.createSchema(system, settings, schemaFound);
      }
      formation.start(system);
      joinCluster(system, settings, formation);
      // The in-memory journal comes without a snapshot store.
      int snapshotEvery = jdbc ? settings.snapshotEvery() : 0;
      ActorRef<Scheduler.Command> scheduler = ClusterSingleton.get(system).init(
          SingletonActor.of(Behaviors.supervise(Scheduler.create(settings.fleetPolicy(), snapshotEvery))
              .onFailure(SupervisorStrategy.restartWithBackoff(
                  Duration.ofMillis(200), Duration.ofSeconds(5), 0.2)), "scheduler"));
      ClusterSharding.get(system).init(Entity.of(ExperimentEntity.TYPE_KEY,
          ctx -> ExperimentEntity.create(ctx.getEntityId(), scheduler, snapshotEvery,
              new ExperimentEntity.Watchdog(ExperimentEntity.Watchdog.STALL_AFTER, metrics::experimentStalled))));
      ClusterSharding.get(system).init(Entity.of(BuildEntity.TYPE_KEY,
          ctx -> BuildEntity.create(ctx.getEntityId(), scheduler, java.time.Clock.systemUTC())));
      ClusterSharding.get(system).init(Entity.of(BisectEntity.TYPE_KEY,
          ctx -> BisectEntity.create(ctx.getEntityId(),
              id -> ClusterSharding.get(system).entityRefFor(ExperimentEntity.TYPE_KEY, id),
              BisectEntity.POLL, settings.askTimeout(), java.time.Clock.systemUTC())));
      if (jdbc) {
        new dev.abfleet.controller.experiment.ExperimentCatalog(system).backfill().whenComplete((n, e) -> {
          if (e != null) {
            log.warn("could not fill the experiments' catalogue from the journal (listings miss the"
                + " experiments without a row until they next change): {}", e.toString());
          } else if (n > 0) {
            log.info("experiments' catalogue: {} row(s) written from the journal", n);
          }
        });
        new BisectCatalog(system).wakeRunning(ClusterSharding.get(system)).whenComplete((n, e) -> {
          if (e != null) {
            log.warn("could not wake the running bisects (they resume when next asked about): {}", e.toString());
          }
        });
      }
      ArtifactStore artifactStore = ArtifactServiceImpl.openStore(artifacts);
      ActorRef<NoiseLedger.Command> noise = ClusterSingleton.get(system).init(
          SingletonActor.of(Behaviors.supervise(NoiseLedger.create(snapshotEvery))
              .onFailure(SupervisorStrategy.restartWithBackoff(
                  Duration.ofMillis(200), Duration.ofSeconds(5), 0.2)), "noise"));
      // Whatever else the starting process records, a finished A/A run's noise goes to the ledger.
      NightlySettings n = settings.nightly();
      NightlySettings nightlySettings = new NightlySettings(n.schedules(), n.configDir(), n.preparer(),
          n.aaNoise().andThen(new LedgerAaNoise(system, noise, settings.askTimeout())), n.clock());
      ActorRef<Nightly.Command> nightly = ClusterSingleton.get(system).init(
          SingletonActor.of(Behaviors.supervise(Nightly.create(nightlySettings, artifactStore,
              new ShardedExperiments(system, settings.askTimeout()), snapshotEvery))
              .onFailure(SupervisorStrategy.restartWithBackoff(
                  Duration.ofMillis(200), Duration.ofSeconds(5), 0.2)), "nightly"));
      tokens = jdbc
          ? JdbcTokenStore.open(settings.storeUrl(), settings.storeUser(), settings.storePassword())
          : new InMemoryTokenStore();
      TokenBootstrap.ensure(security, tokens);
      var handlers = dev.abfleet.controller.grpc.ServerExecutor.start();
      system.getWhenTerminated().thenRun(handlers::shutdown);
      var limits = settings.limits();
      ServerBuilder<?> builder = inProcessName != null
          ? InProcessServerBuilder.forName(inProcessName).executor(handlers)
          : tcp(settings, tls, handlers);
      metrics.fleetSource(SchedulerGauges.source(system, scheduler, Duration.ofSeconds(2)));
      CallerInterceptor callers = new CallerInterceptor(security, tokens);
      Server server = builder
          // Workers size their reports against this number (it is gRPC's default, stated once).
          .maxInboundMessageSize(ProtocolConstants.MAX_MESSAGE_BYTES_VALUE)
          .addService(new WorkerServiceImpl(system, scheduler, settings.heartbeatInterval(),
              settings.heartbeatTimeout(), metrics, limits.workerMessagesPerSecond()))
          .addService(new ExperimentServiceImpl(system, scheduler, settings.askTimeout()))
          .addService(new FleetServiceImpl(system, scheduler, settings.askTimeout()))
          .addService(new BisectServiceImpl(system, scheduler, settings.askTimeout()))
          .addService(new ArtifactServiceImpl(artifactStore))
          .addService(new BuildServiceImpl(system, artifactStore, settings.askTimeout()))
          .addService(new NightlyServiceImpl(system, nightly, settings.askTimeout()))
          .addService(new NoiseServiceImpl(system, noise, settings.askTimeout()))
          .addService(new AuthServiceImpl(tokens, java.time.Clock.systemUTC()))
          // The last interceptor added runs first: calls are limited and counted before the
          // token lookup, so a flood of bad tokens costs no database reads past its limit.
          .intercept(callers)
          .intercept(new CallLimiter(limits, metrics, callers::knownTokenId))
          .build()
          .start();
      MetricsEndpoint endpoint = null;
      try {
        endpoint = settings.metricsPort() == 0 ? null : MetricsEndpoint.start(system,
            settings.grpcHost(), settings.metricsPort(), metrics,
            header -> metricsAccess.test(header) && callers.mayReadMetrics(header),
            https);
      } catch (IllegalStateException e) {
        // Metrics are for watching the node, not for running it: several nodes on one machine
        // (or a port taken) must not keep a controller from serving.
        log.warn("{}", e.getMessage());
      }
      // Asked for explicitly (off by default), so a port that cannot be bound stops the start.
      Dashboard dashboard;
      try {
        dashboard = settings.dashboardPort() == 0 ? null : Dashboard.start(system,
            settings.grpcHost(), settings.dashboardPort(),
            new FleetReader(system, scheduler, settings.askTimeout()),
            header -> metricsAccess.test(header) && callers.mayReadMetrics(header), https,
            settings.nightly().schedules().isEmpty() ? Optional.empty()
                : Optional.of(new NightlySeriesPage(system, nightly, settings.askTimeout())));
      } catch (IllegalStateException e) {
        if (endpoint != null) {
          endpoint.close();
        }
        server.shutdownNow();
        throw e;
      }
      GrpcServing.get(system).set(true);
      log.info("controller {} serving gRPC on {}:{} ({}, client auth {}){}", system.address(),
          settings.grpcHost(), server.getPort(), tls != null ? "TLS" : "plaintext",
          security.auth().name().toLowerCase(java.util.Locale.ROOT),
          endpoint == null ? "" : ", /metrics on port " + endpoint.port());
      if (dashboard != null) {
        log.info("dashboard on {}://{}:{}/", https.isPresent() ? "https" : "http",
            settings.grpcHost(), dashboard.port());
      }
      StoreWatchdog watchdog = jdbc ? watch(system, settings) : null;
      return new ControllerNode(system, server, tokens, metrics, endpoint, dashboard, inProcessName, watchdog);
    } catch (IOException e) {
      closeTokens(tokens);
      terminate(system);
      throw new UncheckedIOException("cannot serve gRPC on " + settings.grpcHost() + ":"
          + settings.grpcPort() + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeTokens(tokens);
      terminate(system);
      throw e;
    }
  }

  /** Starts probing the store; a failure makes the node unready (its owner stops the process). */
  private static StoreWatchdog watch(ActorSystem<Void> system, ControllerSettings settings) {
    StoreWatchdog watchdog = StoreWatchdog.start(settings.storeUrl(), settings.storeUser(),
        settings.storePassword(), STORE_PROBE, STORE_GRACE);
    watchdog.failure().thenRun(() -> StoreHealth.get(system).fail());
    return watchdog;
  }

  /** The TCP server: Netty on the settings' address, with TLS when configured. */
  private static ServerBuilder<?> tcp(ControllerSettings settings, io.grpc.netty.shaded.io.netty.handler.ssl.SslContext tls,
      java.util.concurrent.Executor handlers) {
    NettyServerBuilder builder = NettyServerBuilder
        .forAddress(new InetSocketAddress(settings.grpcHost(), settings.grpcPort()))
        .executor(handlers)
        // Workers ping a quiet connection (keepalive). gRPC's default policy permits one ping in
        // 5 minutes and closes the connection at the third earlier one: every idle worker would
        // reconnect every few minutes. Pings between two of a worker's streams count too.
        .permitKeepAliveTime(ProtocolConstants.CONTROLLER_PERMIT_KEEPALIVE_S_VALUE, TimeUnit.SECONDS)
        .permitKeepAliveWithoutCalls(true)
        .maxConcurrentCallsPerConnection(settings.limits().maxConcurrentCallsPerConnection());
    if (tls != null) {
      builder.sslContext(tls);
    }
    return builder;
  }

  private static void closeTokens(TokenStore tokens) {
    if (tokens instanceof JdbcTokenStore jdbcTokens) {
      jdbcTokens.close();
    }
  }

  /** The port the gRPC server listens on (the chosen one when 0 was asked); -1 when in-process. */
  public int grpcPort() {
    return server.getPort();
  }

  /** The name its services are reached under in this JVM ({@link #startInProcess}); empty = TCP. */
  public Optional<String> inProcessName() {
    return Optional.ofNullable(inProcessName);
  }

  /** The port serving /metrics; 0 = not served (controller.metrics_port: 0). */
  public int metricsPort() {
    return metricsEndpoint == null ? 0 : metricsEndpoint.port();
  }

  /** The port serving the dashboard; 0 = not served (controller.dashboard_port: 0). */
  public int dashboardPort() {
    return dashboard == null ? 0 : dashboard.port();
  }

  /**
   * Completes when the event store failed (closed, corrupted, out of memory, or unreachable for
   * longer than a failover takes): the node is no longer ready, and whoever runs it must stop it
   * and exit non-zero. Never completes for an in-memory journal, or while the store is healthy.
   */
  public java.util.concurrent.CompletionStage<StoreWatchdog.Failure> storeFailure() {
    return watchdog == null ? new java.util.concurrent.CompletableFuture<>() : watchdog.failure();
  }

  /** This node's counters (rejected reports, rate-limited calls, calls by status). */
  public ControllerMetrics metrics() {
    return metrics;
  }

  /** This node's cluster address, e.g. pekko://abfleet@127.0.0.1:25520. */
  public String nodeAddress() {
    return system.address().toString();
  }

  /** The API tokens this node checks calls against (the same rows on every node with JDBC). */
  public TokenStore tokens() {
    return tokens;
  }

  /** Addresses of the members this node sees Up (or WeaklyUp), itself included. */
  public java.util.List<String> clusterMembers() {
    java.util.List<String> up = new java.util.ArrayList<>();
    Cluster.get(system).state().getMembers().forEach(m -> {
      if (m.status() == MemberStatus.up() || m.status() == MemberStatus.weaklyUp()) {
        up.add(m.address().toString());
      }
    });
    return up;
  }

  ActorSystem<Void> system() {
    return system;
  }

  /** Stops the gRPC server (ending worker streams) and the actor system, and waits for both. */
  @Override
  public void close() {
    GrpcServing.get(system).set(false);
    if (metricsEndpoint != null) {
      metricsEndpoint.close();
    }
    if (dashboard != null) {
      dashboard.close();
    }
    server.shutdownNow();
    try {
      server.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    terminate(system);
    dev.abfleet.controller.experiment.CatalogTable.get(system).close();
    closeTokens(tokens);
    if (watchdog != null) {
      watchdog.close();
    }
  }

  private static void terminate(ActorSystem<Void> system) {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      log.warn("actor system did not terminate cleanly: {}", e.toString());
    }
  }

  private static void joinCluster(ActorSystem<Void> system, ControllerSettings settings,
      ClusterFormation formation) {
    Cluster cluster = Cluster.get(system);
    if (settings.seedNodes().isEmpty() && !formation.bootstraps()) {
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
    }
    long deadline = System.nanoTime() + formation.joinTimeout().toNanos();
    while (cluster.selfMember().status() != MemberStatus.up()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("node " + system.address() + " did not join the cluster in "
            + formation.joinTimeout().toSeconds() + " s; check " + (formation.bootstraps()
                ? "that pods labelled " + formation.podLabelSelector() + " run and may be listed"
                    + " (Role with pods get/watch/list)"
                : "seed nodes " + settings.seedNodes()));
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while joining the cluster", e);
      }
    }
  }
}
