package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.testkit.TestPostgres;
import io.grpc.ManagedChannel;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The controller on PostgreSQL: journal, snapshots and remembered entities, across a restart. */
class PostgresStoreTest extends ControllerNodeTest {

  static ControllerSettings on(TestPostgres.Database db) {
    return fastSettings()
        .withStore(ControllerSettings.Store.JDBC, db.url())
        .withStoreCredentials(db.user(), db.password())
        .withSnapshotEvery(3);
  }

  @ParameterizedTest
  @EnumSource(TestPostgres.Source.class)
  void experimentFinishesAfterARestartOnTheSameDatabase(TestPostgres.Source source) throws Exception {
    try (TestPostgres.Database db = TestPostgres.create(source)) {
      try (ControllerNode first = ControllerNodeTest.inProcess(on(db));
          FakeWorker stalling = new FakeWorker(first, "h1", 0.7, 2, false).start()) {
        ManagedChannel channel = channel(first);
        submit(client(channel), "e-pg", 6);
        awaitExperiment(client(channel), "e-pg",
            e -> e.getPairsDone() == 2 && stalling.assignments.size() == 3, Duration.ofSeconds(30));
        channel.shutdownNow();
      }

      try (ControllerNode second = ControllerNodeTest.inProcess(on(db));
          FakeWorker worker = FakeWorker.connect(second, "h1", 0.7)) {
        // Nobody asks about the experiment: remembered by sharding, it wakes up and gets hosts.
        Eventually.await("blocks after restart", java.time.Duration.ofSeconds(10), () -> !worker.assignments.isEmpty());
        ManagedChannel channel = channel(second);
        Experiment done = awaitExperiment(client(channel), "e-pg",
            e -> e.getState().equals("completed"), Duration.ofSeconds(30));
        channel.shutdownNow();

        assertPairsBackToBack(done);
        assertThat(comparison(done, "metadata_stat").getVerdict()).isEqualTo("regressed");
      }
      assertThat(count(db, "SELECT COUNT(*) FROM snapshot WHERE persistence_id = 'experiment|e-pg'"))
          .as("experiment snapshots in PostgreSQL").isPositive();
      assertThat(count(db, "SELECT COUNT(*) FROM event_journal WHERE persistence_id LIKE '/sharding/%'"))
          .as("remembered entities in the journal").isPositive();
    }
  }

  static long count(TestPostgres.Database db, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
