package dev.abfleet.cli;

import dev.abfleet.controller.ControllerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@code abfleet controller ARGS} (the last two must be {@code --home DIR}) whose H2 store is
 * closed under it once "closed-store" appears in DIR: what H2 does to itself after an
 * OutOfMemoryError or a corrupted page. Nothing outside the controller's JVM can close an
 * embedded database, so the test runs this main in a process of its own.
 */
public final class ClosingStoreController {
  private ClosingStoreController() {}

  public static void main(String[] args) {
    Path home = Path.of(args[args.length - 1]);
    Thread closer = new Thread(() -> {
      try {
        while (!Files.exists(home.resolve("closed-store"))) {
          Thread.sleep(50);
        }
        String url = ControllerSettings.h2FileUrl(home.resolve("store").resolve("controller"));
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
          s.execute("SHUTDOWN IMMEDIATELY");
        } catch (SQLException closedWithIt) {
          // The connection that shut the database down is closed with it.
        }
        System.err.println("test: store closed");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "store-closer");
    closer.setDaemon(true);
    closer.start();
    Main.main(args);
  }
}
