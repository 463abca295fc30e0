package dev.abfleet.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.store.StoreWatchdog;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A controller whose store fails goes down instead of serving on as a zombie. */
class StoreFailureTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aClosedH2StoreMakesTheNodeUnreadyWithinSeconds(@TempDir Path dir) throws Exception {
    int management = freePort();
    ControllerSettings settings = ControllerSettings.inMemory().withStore(ControllerSettings.Store.JDBC,
        ControllerSettings.h2FileUrl(dir.resolve("controller")));
    try (ControllerNode node = ControllerNode.start(settings,
        ClusterFormation.seedNodesWithManagement(management))) {
      assertThat(ready(management)).isEqualTo(200);

      // What H2 does to itself after an OutOfMemoryError or a corrupted page: the database closes
      // under every open connection, and each later call fails "The database has been closed".
      try (Connection c = DriverManager.getConnection(settings.storeUrl(), "sa", "");
          Statement s = c.createStatement()) {
        s.execute("SHUTDOWN IMMEDIATELY");
      } catch (java.sql.SQLException closedUnderUs) {
        // The connection that shut the database down is closed with it.
      }
      long start = System.nanoTime();
      StoreWatchdog.Failure failure = node.storeFailure().toCompletableFuture().get(5, TimeUnit.SECONDS);

      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      assertThat(failure.store()).isEqualTo("jdbc:h2:file:" + dir.resolve("controller").toAbsolutePath());
      assertThat(failure.message()).contains("failed: ").contains("abfleet store check")
          .contains("abfleet store restore");
      assertThat(ready(management)).isEqualTo(500);
    }
  }

  @Test
  void aHealthyStoreNeverFails(@TempDir Path dir) throws Exception {
    ControllerSettings settings = ControllerSettings.inMemory().withStore(ControllerSettings.Store.JDBC,
        ControllerSettings.h2FileUrl(dir.resolve("controller")));
    try (ControllerNode node = ControllerNode.start(settings)) {
      Thread.sleep(2_500); // two probes and a half
      assertThat(node.storeFailure().toCompletableFuture().isDone()).isFalse();
    }
  }

  private static int ready(int port) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
        + ClusterFormation.READINESS_PATH)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
