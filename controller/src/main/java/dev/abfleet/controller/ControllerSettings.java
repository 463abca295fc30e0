package dev.abfleet.controller;

import dev.abfleet.model.ControllerDefaults;
import dev.abfleet.model.Limits;

import dev.abfleet.controller.nightly.NightlySettings;
import dev.abfleet.controller.schedule.FleetPolicy;
import dev.abfleet.controller.security.Security;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How to run one controller node.
 *
 * @param grpcHost address the gRPC server binds
 * @param grpcPort gRPC port; 0 = ephemeral (see {@link ControllerNode#grpcPort()})
 * @param clusterHost address of this node in the Pekko cluster
 * @param clusterPort Pekko remoting port; 0 = ephemeral
 * @param seedNodes cluster addresses to join, "host:port" (a node's cluster port) or
 *     "pekko://abfleet@host:port"; empty = form a one-node cluster with itself
 * @param store where events go: JDBC (H2 file by default, PostgreSQL) or in memory (tests)
 * @param storeUrl JDBC URL; used when store is JDBC
 * @param heartbeatInterval how often workers must send heartbeats
 * @param heartbeatTimeout silence after which a worker's stream is closed and its lease released
 *     (each session waits up to a fifth longer, at random, so that hosts silenced together by a
 *     stall do not all reconnect at once)
 * @param askTimeout how long gRPC calls wait for an actor's answer before UNAVAILABLE
 * @param fleetPolicy quarantine threshold, cap and cool-down, lease timeouts
 * @param snapshotEvery an experiment or the scheduler saves a snapshot of its state after at
 *     least this many events, and at least as many as its state has entries (hosts, recorded
 *     boots), at most 100 times this many ({@link dev.abfleet.controller.store.SnapshotPacing});
 *     0 = never (replay every event)
 * @param security TLS or plaintext, and how clients authenticate
 * @param limits per-client and per-stream rate limits of the gRPC server
 * @param metricsPort HTTP port serving Prometheus {@code /metrics} on {@code grpcHost}; 0 = off
 * @param dashboardPort HTTP port serving the dashboard (experiments, reports, hosts) on
 *     {@code grpcHost}; 0 = off
 * @param nightly the schedules this controller fires (fleet.yaml's {@code schedules:}); none by default
 * @param insecureCluster allow a plaintext cluster port that other machines can reach (seed
 *     nodes, or a cluster host other than loopback); false = such settings are refused, see
 *     {@link ClusterExposure}. With TLS the cluster port is mutual TLS and this changes nothing.
 */
public record ControllerSettings(
    String grpcHost,
    int grpcPort,
    String clusterHost,
    int clusterPort,
    List<String> seedNodes,
    Store store,
    String storeUrl,
    String storeUser,
    String storePassword,
    Duration heartbeatInterval,
    Duration heartbeatTimeout,
    Duration askTimeout,
    FleetPolicy fleetPolicy,
    int snapshotEvery,
    Security security,
    Limits limits,
    int metricsPort,
    int dashboardPort,
    NightlySettings nightly,
    boolean insecureCluster) {

  public enum Store {
    JDBC,
    IN_MEMORY
  }

  /** Settings with {@link Limits#defaults()} and no /metrics endpoint. */
  public ControllerSettings(String grpcHost, int grpcPort, String clusterHost, int clusterPort,
      List<String> seedNodes, Store store, String storeUrl, String storeUser, String storePassword,
      Duration heartbeatInterval, Duration heartbeatTimeout, Duration askTimeout,
      FleetPolicy fleetPolicy, int snapshotEvery) {
    this(grpcHost, grpcPort, clusterHost, clusterPort, seedNodes, store, storeUrl, storeUser,
        storePassword, heartbeatInterval, heartbeatTimeout, askTimeout, fleetPolicy, snapshotEvery,
        Security.plaintextLoopback(), Limits.defaults(), 0, 0, NightlySettings.none(), false);
  }

  public ControllerSettings {
    seedNodes = List.copyOf(seedNodes);
    java.util.Objects.requireNonNull(security, "security");
    java.util.Objects.requireNonNull(nightly, "nightly");
    if (metricsPort < 0 || metricsPort > 65535) {
      throw new IllegalArgumentException("metrics port " + metricsPort
          + ": expected 0 (off) or a TCP port up to 65535");
    }
    if (dashboardPort < 0 || dashboardPort > 65535) {
      throw new IllegalArgumentException("dashboard port " + dashboardPort
          + ": expected 0 (off) or a TCP port up to 65535");
    }
    if (snapshotEvery < 0) {
      throw new IllegalArgumentException("snapshot every " + snapshotEvery
          + " events: expected 0 (off) or a positive number");
    }
  }

  /** Snapshot interval of {@link #defaults()}, in events. */
  public static final int DEFAULT_SNAPSHOT_EVERY = ControllerDefaults.SNAPSHOT_EVERY;

  /** Default HTTP port of /metrics in fleet.yaml ({@code controller.metrics_port}). */
  public static final int DEFAULT_METRICS_PORT = ControllerDefaults.METRICS_PORT;

  /**
   * Loopback, ephemeral ports, plaintext without client auth, H2 file under $ABFLEET_HOME (or
   * ~/.cache/abfleet)/store.
   */
  public static ControllerSettings defaults() {
    return new ControllerSettings("127.0.0.1", 0, "127.0.0.1", 0, List.of(), Store.JDBC,
        h2FileUrl(abfleetHome().resolve("store").resolve("controller")), "sa", "",
        Duration.ofMillis(1000), Duration.ofMillis(1000L * HEARTBEAT_TIMEOUT_INTERVALS), Duration.ofSeconds(5),
        FleetPolicy.defaults(), DEFAULT_SNAPSHOT_EVERY, Security.plaintextLoopback(), Limits.defaults(), 0, 0, NightlySettings.none(), false);
  }

  /** Defaults with the in-memory journal: nothing survives close(). For tests. */
  public static ControllerSettings inMemory() {
    return defaults().withStore(Store.IN_MEMORY, "");
  }

  /**
   * JDBC URL of an embedded H2 database in {@code file} (H2 appends .mv.db), with its memory
   * bounded: a page cache of {@link #H2_CACHE_KB} KiB (H2's default scales with the heap and took
   * a 384 MiB controller out of memory together with large query results), and query results
   * beyond {@link #H2_MAX_MEMORY_ROWS} rows buffered on disk instead of the heap. Each commit is
   * written to the file before it returns (WRITE_DELAY=0): with H2's default of 500 ms, a
   * controller killed with SIGKILL lost submissions it had acknowledged. H2 does not
   * close the database from a shutdown hook of its own: on SIGTERM it would close under the
   * journal's last writes; the node closes it once the actor system has stopped.
   *
   * <p>Journal and snapshot payloads are BLOBs; H2 keeps a BLOB of at most MAX_LENGTH_INPLACE_LOB
   * bytes in its row and any larger one in a separate LOB map, which every read copies into a
   * temporary LOB and removes again. Events are a few KB, so at H2's default of 256 bytes every
   * replayed event paid that copy (replaying 30,000 events took 1.8x as long as with the
   * payloads in-row).
   */
  public static String h2FileUrl(Path file) {
    return "jdbc:h2:file:" + file.toAbsolutePath() + ";AUTO_SERVER=FALSE;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;CACHE_SIZE=" + H2_CACHE_KB
        + ";MAX_MEMORY_ROWS=" + H2_MAX_MEMORY_ROWS + ";MAX_LENGTH_INPLACE_LOB=65536";
  }

  /** H2's page cache, in KiB. */
  static final int H2_CACHE_KB = 16 * 1024;
  /** Rows of one query result H2 keeps in memory; more go to a temporary file. */
  static final int H2_MAX_MEMORY_ROWS = 2_000;

  /** $ABFLEET_HOME, or ~/.cache/abfleet. */
  public static Path abfleetHome() {
    String home = System.getenv("ABFLEET_HOME");
    return home != null && !home.isEmpty()
        ? Path.of(home)
        : Path.of(System.getProperty("user.home"), ".cache", "abfleet");
  }

  public ControllerSettings withGrpc(String host, int port) {
    return toBuilder().grpc(host, port).build();
  }

  public ControllerSettings withCluster(String host, int port, List<String> seeds) {
    return toBuilder().cluster(host, port, seeds).build();
  }

  public ControllerSettings withStore(Store kind, String url) {
    return toBuilder().store(kind, url).build();
  }

  public ControllerSettings withStoreCredentials(String user, String password) {
    return toBuilder().storeCredentials(user, password).build();
  }

  /**
   * Heartbeat intervals of silence before a worker is offline. Five, not three: a controller
   * that stalls for a few seconds (a full GC, a burst of thousands of reconnects) must not
   * drop every host it failed to read from in that time, each of which then reconnects.
   */
  public static final int HEARTBEAT_TIMEOUT_INTERVALS = 5;

  /** Heartbeat interval; the timeout becomes {@link #HEARTBEAT_TIMEOUT_INTERVALS} intervals. */
  public ControllerSettings withHeartbeatInterval(Duration interval) {
    return withHeartbeat(interval, interval.multipliedBy(HEARTBEAT_TIMEOUT_INTERVALS));
  }

  public ControllerSettings withHeartbeat(Duration interval, Duration timeout) {
    return toBuilder().heartbeat(interval, timeout).build();
  }

  public ControllerSettings withAskTimeout(Duration timeout) {
    return toBuilder().askTimeout(timeout).build();
  }

  public ControllerSettings withFleetPolicy(FleetPolicy policy) {
    return toBuilder().fleetPolicy(policy).build();
  }

  /** Snapshot every {@code events} events; 0 = never. */
  public ControllerSettings withSnapshotEvery(int events) {
    return toBuilder().snapshotEvery(events).build();
  }

  /** TLS or plaintext and the client authentication mode. */
  public ControllerSettings withSecurity(Security security) {
    return toBuilder().security(security).build();
  }

  /** Per-client and per-stream limits of the gRPC server. */
  public ControllerSettings withLimits(Limits newLimits) {
    return toBuilder().limits(newLimits).build();
  }

  /** Serves /metrics on {@code port} of the gRPC host; 0 = off. */
  public ControllerSettings withMetricsPort(int port) {
    return toBuilder().metricsPort(port).build();
  }

  /** Serves the dashboard on {@code port} of the gRPC host; 0 = off. */
  public ControllerSettings withDashboardPort(int port) {
    return toBuilder().dashboardPort(port).build();
  }

  /** Allow a plaintext cluster port reachable from other machines (see {@link ClusterExposure}). */
  public ControllerSettings withInsecureCluster(boolean insecure) {
    return toBuilder().insecureCluster(insecure).build();
  }

  /** The schedules this controller fires, and what it needs to run them. */
  public ControllerSettings withNightly(NightlySettings schedules) {
    return toBuilder().nightly(schedules).build();
  }

  /** A builder starting from these settings: change several at once, then {@link Builder#build()}. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Settings under construction; {@link #build()} checks them as the record does. */
  public static final class Builder {
    private String grpcHost;
    private int grpcPort;
    private String clusterHost;
    private int clusterPort;
    private List<String> seedNodes;
    private Store store;
    private String storeUrl;
    private String storeUser;
    private String storePassword;
    private Duration heartbeatInterval;
    private Duration heartbeatTimeout;
    private Duration askTimeout;
    private FleetPolicy fleetPolicy;
    private int snapshotEvery;
    private Security security;
    private Limits limits;
    private int metricsPort;
    private int dashboardPort;
    private NightlySettings nightly;
    private boolean insecureCluster;

    private Builder(ControllerSettings s) {
      grpcHost = s.grpcHost;
      grpcPort = s.grpcPort;
      clusterHost = s.clusterHost;
      clusterPort = s.clusterPort;
      seedNodes = s.seedNodes;
      store = s.store;
      storeUrl = s.storeUrl;
      storeUser = s.storeUser;
      storePassword = s.storePassword;
      heartbeatInterval = s.heartbeatInterval;
      heartbeatTimeout = s.heartbeatTimeout;
      askTimeout = s.askTimeout;
      fleetPolicy = s.fleetPolicy;
      snapshotEvery = s.snapshotEvery;
      security = s.security;
      limits = s.limits;
      metricsPort = s.metricsPort;
      dashboardPort = s.dashboardPort;
      nightly = s.nightly;
      insecureCluster = s.insecureCluster;
    }

    public Builder grpc(String host, int port) {
      grpcHost = host;
      grpcPort = port;
      return this;
    }

    public Builder cluster(String host, int port, List<String> seeds) {
      clusterHost = host;
      clusterPort = port;
      seedNodes = seeds;
      return this;
    }

    public Builder store(Store kind, String url) {
      store = kind;
      storeUrl = url;
      return this;
    }

    public Builder storeCredentials(String user, String password) {
      storeUser = user;
      storePassword = password;
      return this;
    }

    public Builder heartbeat(Duration interval, Duration timeout) {
      heartbeatInterval = interval;
      heartbeatTimeout = timeout;
      return this;
    }

    public Builder askTimeout(Duration timeout) {
      askTimeout = timeout;
      return this;
    }

    public Builder fleetPolicy(FleetPolicy policy) {
      fleetPolicy = policy;
      return this;
    }

    public Builder snapshotEvery(int events) {
      snapshotEvery = events;
      return this;
    }

    public Builder security(Security s) {
      security = s;
      return this;
    }

    public Builder limits(Limits l) {
      limits = l;
      return this;
    }

    public Builder metricsPort(int port) {
      metricsPort = port;
      return this;
    }

    public Builder dashboardPort(int port) {
      dashboardPort = port;
      return this;
    }

    public Builder nightly(NightlySettings n) {
      nightly = n;
      return this;
    }

    public Builder insecureCluster(boolean insecure) {
      insecureCluster = insecure;
      return this;
    }

    public ControllerSettings build() {
      return new ControllerSettings(grpcHost, grpcPort, clusterHost, clusterPort, seedNodes, store, storeUrl,
          storeUser, storePassword, heartbeatInterval, heartbeatTimeout, askTimeout, fleetPolicy, snapshotEvery,
          security, limits, metricsPort, dashboardPort, nightly, insecureCluster);
    }
  }
}
