package dev.abfleet.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreWatchdogTest {

  @Test
  void treatsAClosedH2DatabaseAsFatal(@TempDir Path dir) throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("db");
    try (Connection kept = DriverManager.getConnection(url, "sa", "")) {
      try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
        s.execute("SHUTDOWN IMMEDIATELY");
      } catch (SQLException closedUnderUs) {
        // closed with the database
      }
      SQLException e = org.assertj.core.api.Assertions.catchThrowableOfType(SQLException.class,
          () -> kept.createStatement().execute("SELECT 1"));

      assertThat(StoreWatchdog.isFatal(e)).as(e.toString()).isTrue();
    }
  }

  @Test
  void treatsAnUnreachableServerAsPassing() {
    SQLException refused = new SQLException("Connection to 127.0.0.1:1 refused", "08001");

    assertThat(StoreWatchdog.isFatal(refused)).isFalse();
    assertThat(StoreWatchdog.isFatal(new SQLException("wrapped", new OutOfMemoryError("Java heap space"))))
        .isTrue();
  }

  @Test
  void declaresAnUnreachableStoreFailedOnlyAfterItsGrace() throws Exception {
    // Nothing listens on port 1: every probe fails to connect, an error that may pass.
    String url = "jdbc:h2:tcp://127.0.0.1:1/nothing";
    try (StoreWatchdog w = StoreWatchdog.start(url, "sa", "", Duration.ofMillis(100), Duration.ofSeconds(1))) {
      Thread.sleep(500);
      assertThat(w.hasFailed()).isFalse();
      StoreWatchdog.Failure f = w.failure().toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(f.cause()).startsWith("no answer for 1 s");
      assertThat(f.store()).isEqualTo("jdbc:h2:tcp://127.0.0.1:1/nothing");
    }
  }
}
