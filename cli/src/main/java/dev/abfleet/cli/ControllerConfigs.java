package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.controller.ClusterFormation;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.controller.nightly.NightlySettings;
import dev.abfleet.controller.security.Security;
import dev.abfleet.config.NightlySchedules;
import dev.abfleet.worker.guest.GuestArtifacts;
import java.nio.file.Path;
import java.time.Duration;

/** fleet.yaml's controller section to {@link ControllerSettings}. */
public final class ControllerConfigs {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ControllerConfigs.class);

  private ControllerConfigs() {}

  /**
   * What a standalone controller without TLS says at start: a warning, since every local user and
   * process can then submit, cancel and register workers unauthenticated. (The controller inside
   * ab and demo is plaintext by design and says nothing.)
   */
  static void warnIfPlaintext(ControllerSettings s, boolean plaintextFlag) {
    if (s.security().transport() instanceof Security.Plaintext) {
      log.warn("gRPC on {}:{} is plaintext without client authentication ({}): anyone on this machine can submit,"
          + " cancel and join as a worker; for shared machines set controller.tls (abfleet certs init) instead",
          s.grpcHost(), s.grpcPort(), plaintextFlag ? "--plaintext" : "controller.plaintext: true");
    }
  }

  /**
   * The controller inside {@code ab} and {@code demo}: loopback, ephemeral ports, the default
   * store, plaintext without client auth (nothing to set up; only this machine reaches it), no
   * /metrics (several may run at once on one machine) and never the dashboard.
   */
  static ControllerSettings embedded(FleetConfig config, Path home) {
    return fromConfig(config, home).withGrpc("127.0.0.1", 0).withCluster("127.0.0.1", 0, java.util.List.of())
        .withSecurity(Security.plaintextLoopback()).withMetricsPort(0)
        .withDashboardPort(0);
  }

  /**
   * The security of {@code abfleet controller}: fleet.yaml's tls/plaintext/auth keys, with
   * {@code plaintextFlag} for --plaintext; the bootstrap token goes under {@code home} unless
   * fleet.yaml says where.
   *
   * @throws Problem when neither TLS nor plaintext is configured, or plaintext on a
   *     non-loopback grpc_host, naming the keys and the fix
   */
  static Security security(FleetConfig config, boolean plaintextFlag, String grpcHost, Path home) {
    FleetConfig.ControllerSecurity c = config.controller().security();
    if (plaintextFlag && c.tls()) {
      throw new Problem("--plaintext and controller.tls (fleet.yaml) are both set; drop one");
    }
    Security.Transport transport;
    if (c.tls()) {
      transport = new Security.Tls(Path.of(c.ca()), Path.of(c.cert()), Path.of(c.key()));
    } else if (plaintextFlag || c.plaintext()) {
      transport = new Security.Plaintext();
    } else {
      throw new Problem("no TLS configured: run `abfleet certs init` and `abfleet certs issue"
          + " --controller NAME --san HOSTS`, set controller.tls.ca, .cert and .key in fleet.yaml"
          + " (--config), or pass --plaintext (controller.plaintext: true) for a loopback-only controller");
    }
    Security.AuthMode mode;
    try {
      mode = Security.AuthMode.of(c.authMode(), transport);
    } catch (IllegalArgumentException e) {
      throw new Problem("controller.auth.mode: " + e.getMessage());
    }
    Security security = new Security(transport, mode, c.bootstrapTokenFile().isEmpty()
        ? home.resolve("controller").resolve("operator.token") : Path.of(c.bootstrapTokenFile()));
    try {
      security.checkBind(grpcHost);
    } catch (IllegalArgumentException e) {
      throw new Problem((plaintextFlag ? "--plaintext: " : "controller.plaintext: ") + e.getMessage());
    }
    return security;
  }

  /**
   * fleet.yaml's schedules for {@code abfleet controller} to fire: crons in this machine's time
   * zone, relative kernel paths from {@code configDir}, guest images built and cached under
   * {@code home} as {@code abfleet ab} builds them.
   */
  static NightlySettings nightly(FleetConfig config, Path configDir, Path home) {
    return new NightlySettings(NightlySchedules.of(config, java.time.ZoneId.systemDefault()), configDir,
        // Kernels of nightly runs are found on this machine: their guests and module trees are
        // prepared here, as a client prepares them before it uploads.
        spec -> new dev.abfleet.cli.upload.ModuleTreePacks(home).packAll(GuestArtifacts.prepare(spec, home)),
        // The controller records A/A noise in its own journal (LedgerAaNoise), not under this home.
        dev.abfleet.controller.nightly.AaNoise.NONE);
  }

  /** The controller as configured in fleet.yaml. */
  static ControllerSettings fromConfig(FleetConfig config, Path home) {
    FleetConfig.Controller c = config.controller();
    ControllerSettings s = ControllerSettings.defaults()
        .withGrpc(c.grpcHost(), c.grpcPort())
        .withCluster(c.grpcHost(), c.clusterPort(), c.seedNodes())
        .withHeartbeatInterval(Duration.ofMillis(c.heartbeatIntervalMs()))
        .withSnapshotEvery(c.store().snapshotEvery())
        .withLimits(c.limits())
        .withMetricsPort(c.metricsPort())
        .withDashboardPort(c.dashboardPort());
    FleetConfig.Store store = c.store();
    if (store.kind().equals("postgres")) {
      String password = "";
      if (!store.passwordEnv().isEmpty()) {
        password = System.getenv(store.passwordEnv());
        if (password == null) {
          throw new Problem("controller.store.password_env names " + store.passwordEnv()
              + ", which is not set; export it with the database password");
        }
      }
      return s.withStore(ControllerSettings.Store.JDBC, store.url()).withStoreCredentials(store.user(), password);
    }
    return s.withStore(ControllerSettings.Store.JDBC,
        ControllerSettings.h2FileUrl(h2Dir(config, home).resolve("controller")));
  }

  /** The artifact store of fleet.yaml's controller.artifacts; path empty = under {@code home}. */
  static ArtifactStoreSettings artifacts(FleetConfig config, Path home) {
    FleetConfig.Artifacts a = config.controller().artifacts();
    return new ArtifactStoreSettings(a.path().isEmpty() ? ArtifactStoreSettings.under(home)
        : Path.of(expandHome(a.path())), a.maxBytes(), a.maxUploadBytes());
  }

  /** How the controller nodes of fleet.yaml find each other, and whether they serve Pekko Management. */
  static ClusterFormation formation(FleetConfig config) {
    FleetConfig.Formation f = config.controller().formation();
    if (f.kubernetesApi()) {
      return ClusterFormation.kubernetesApi(f.managementPort(), f.podLabelSelector(), f.requiredContactPoints());
    }
    return f.managementPort() == 0 ? ClusterFormation.seedNodes()
        : ClusterFormation.seedNodesWithManagement(f.managementPort());
  }

  /** The directory of the H2 store, or null when the store is PostgreSQL. */
  public static Path h2Dir(FleetConfig config, Path home) {
    FleetConfig.Store store = config.controller().store();
    if (store.kind().equals("postgres")) {
      return null;
    }
    return store.path().isEmpty() ? home.resolve("store") : Path.of(expandHome(store.path()));
  }

  /** How the user named the H2 store directory, for messages. */
  public static String h2DirOrigin(FleetConfig config, String homeOrigin) {
    return config.controller().store().path().isEmpty() ? homeOrigin
        : "controller.store.path " + config.controller().store().path() + " (fleet.yaml)";
  }

  private static String expandHome(String path) {
    return path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path;
  }
}
