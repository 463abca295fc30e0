package dev.abfleet.cli;

import dev.abfleet.cli.config.FleetConfig;
import dev.abfleet.controller.ClusterFormation;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import java.nio.file.Path;
import java.time.Duration;

/** fleet.yaml's controller section to {@link ControllerSettings}. */
final class ControllerConfigs {
  private ControllerConfigs() {}

  /**
   * The controller inside {@code ab} and {@code demo}: loopback, ephemeral ports, the default
   * store, no /metrics (several may run at once on one machine).
   */
  static ControllerSettings embedded(FleetConfig config, Path home) {
    return fromConfig(config, home).withGrpc("127.0.0.1", 0).withCluster("127.0.0.1", 0, java.util.List.of())
        .withMetricsPort(0);
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
        .withMetricsPort(c.metricsPort());
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
  static Path h2Dir(FleetConfig config, Path home) {
    FleetConfig.Store store = config.controller().store();
    if (store.kind().equals("postgres")) {
      return null;
    }
    return store.path().isEmpty() ? home.resolve("store") : Path.of(expandHome(store.path()));
  }

  /** How the user named the H2 store directory, for messages. */
  static String h2DirOrigin(FleetConfig config, String homeOrigin) {
    return config.controller().store().path().isEmpty() ? homeOrigin
        : "controller.store.path " + config.controller().store().path() + " (fleet.yaml)";
  }

  private static String expandHome(String path) {
    return path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path;
  }
}
