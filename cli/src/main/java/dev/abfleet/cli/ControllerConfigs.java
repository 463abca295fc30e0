package dev.abfleet.cli;

import dev.abfleet.cli.config.FleetConfig;
import dev.abfleet.controller.ControllerSettings;
import java.nio.file.Path;
import java.time.Duration;

/** fleet.yaml's controller section to {@link ControllerSettings}. */
final class ControllerConfigs {
  private ControllerConfigs() {}

  /** The controller inside {@code ab} and {@code demo}: loopback, ephemeral ports, the default store. */
  static ControllerSettings embedded(FleetConfig config, Path home) {
    return fromConfig(config, home).withGrpc("127.0.0.1", 0).withCluster("127.0.0.1", 0, java.util.List.of());
  }

  /** The controller as configured in fleet.yaml. */
  static ControllerSettings fromConfig(FleetConfig config, Path home) {
    FleetConfig.Controller c = config.controller();
    ControllerSettings s = ControllerSettings.defaults()
        .withGrpc(c.grpcHost(), c.grpcPort())
        .withCluster(c.grpcHost(), c.clusterPort(), c.seedNodes())
        .withHeartbeatInterval(Duration.ofMillis(c.heartbeatIntervalMs()));
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
    Path dir = store.path().isEmpty() ? home.resolve("store") : Path.of(expandHome(store.path()));
    return s.withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
  }

  private static String expandHome(String path) {
    return path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path;
  }
}
