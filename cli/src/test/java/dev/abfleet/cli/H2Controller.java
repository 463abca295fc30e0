package dev.abfleet.cli;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.testkit.Ports;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A controller on an H2 file store and an artifact store under a test's directory, on a fixed
 * loopback port: stopped and started again, it is the same controller with the same experiments
 * at the same address, as a restarted one is.
 */
public record H2Controller(int port, ControllerSettings settings, ArtifactStoreSettings artifacts) {

  /** On a free loopback port, its stores under {@code dir}. */
  public static H2Controller under(Path dir) throws IOException {
    int port = Ports.freeLoopbackPort();
    return new H2Controller(port, ControllerSettings.defaults().withGrpc("127.0.0.1", port)
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store").resolve("controller"))),
        new ArtifactStoreSettings(ArtifactStoreSettings.under(dir), ArtifactStoreSettings.DEFAULT_MAX_BYTES));
  }

  /** "127.0.0.1:PORT". */
  public String target() {
    return "127.0.0.1:" + port;
  }

  public ControllerNode start() {
    return ControllerNode.start(settings, artifacts);
  }
}
