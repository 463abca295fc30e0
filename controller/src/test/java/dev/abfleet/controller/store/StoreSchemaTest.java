package dev.abfleet.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.testkit.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The event store's schema version, on H2 and on PostgreSQL, through a real controller start. */
class StoreSchemaTest {

  record Store(String url, String user, String password) {
    ControllerSettings settings() {
      return ControllerSettings.defaults().withStore(ControllerSettings.Store.JDBC, url)
          .withStoreCredentials(user, password);
    }
  }

  static Store h2(Path dir) {
    return new Store(ControllerSettings.h2FileUrl(dir.resolve("controller")), "sa", "");
  }

  static Store postgres(TestPostgres.Database db) {
    return new Store(db.url(), db.user(), db.password());
  }

  @Test
  void h2StoreRecordsItsVersionOnceAcrossStarts(@TempDir Path dir) throws Exception {
    recordsItsVersionOnceAcrossStarts(h2(dir));
  }

  @Test
  void h2StoreOfANewerVersionIsRefused(@TempDir Path dir) throws Exception {
    newerVersionIsRefused(h2(dir));
  }

  @ParameterizedTest
  @EnumSource(TestPostgres.Source.class)
  void postgresStoreRecordsItsVersionOnceAcrossStarts(TestPostgres.Source source) throws Exception {
    try (TestPostgres.Database db = TestPostgres.create(source)) {
      recordsItsVersionOnceAcrossStarts(postgres(db));
    }
  }

  /**
   * Cluster nodes starting together on one fresh PostgreSQL database race to create the version
   * table; PostgreSQL fails a concurrent CREATE TABLE IF NOT EXISTS with "type ... already
   * exists". Every node must still read the (empty) version. Eight callers per round, a fresh
   * database per round.
   */
  @ParameterizedTest
  @EnumSource(TestPostgres.Source.class)
  void nodesStartingTogetherAllReadTheVersionOfAFreshPostgresStore(TestPostgres.Source source)
      throws Exception {
    for (int round = 0; round < 5; round++) {
      try (TestPostgres.Database db = TestPostgres.create(source)) {
        ControllerSettings settings = postgres(db).settings();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
          java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
          List<java.util.concurrent.Future<java.util.OptionalInt>> calls = new ArrayList<>();
          for (int i = 0; i < 8; i++) {
            calls.add(pool.submit(() -> {
              go.await();
              return EventStore.schemaVersion(settings);
            }));
          }
          go.countDown();
          for (var call : calls) {
            assertThat(call.get()).isEmpty();
          }
        } finally {
          pool.shutdownNow();
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestPostgres.Source.class)
  void postgresStoreOfANewerVersionIsRefused(TestPostgres.Source source) throws Exception {
    try (TestPostgres.Database db = TestPostgres.create(source)) {
      newerVersionIsRefused(postgres(db));
    }
  }

  @Test
  void storeWithoutAVersionIsCreatedAndANewerOneNamesBothVersionsAndTheFix() {
    assertThat(StoreSchema.plan(java.util.OptionalInt.empty(), "s")).isEqualTo(StoreSchema.Plan.CREATE);
    assertThat(StoreSchema.plan(java.util.OptionalInt.of(StoreSchema.CURRENT), "s"))
        .isEqualTo(StoreSchema.Plan.NOTHING);
    assertThatThrownBy(() -> StoreSchema.plan(java.util.OptionalInt.of(StoreSchema.CURRENT + 1), "jdbc:h2:file:/x"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the event store jdbc:h2:file:/x has schema version 4 but this controller knows"
            + " only up to version 3; run the abfleet release that wrote it (or a newer one), or"
            + " point controller.store at another database");
  }

  private static void recordsItsVersionOnceAcrossStarts(Store store) throws Exception {
    ControllerNode.start(store.settings()).close();
    List<String> first = versions(store);
    ControllerNode.start(store.settings()).close();

    assertThat(first).hasSize(1).allSatisfy(row -> assertThat(row).startsWith(StoreSchema.CURRENT + " "));
    assertThat(versions(store)).as("a second start changes nothing").isEqualTo(first);
  }

  private static void newerVersionIsRefused(Store store) throws Exception {
    StoreSchema.found(store.url(), store.user(), store.password());
    execute(store, "INSERT INTO abfleet_schema_version (version, applied_at) VALUES ("
        + (StoreSchema.CURRENT + 1) + ", CURRENT_TIMESTAMP)");

    assertThatThrownBy(() -> ControllerNode.start(store.settings()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has schema version " + (StoreSchema.CURRENT + 1))
        .hasMessageContaining("knows only up to version " + StoreSchema.CURRENT)
        .hasMessageContaining("run the abfleet release that wrote it");
  }

  /** "version applied_at" per recorded row, oldest first. */
  private static List<String> versions(Store store) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(store.url(), store.user(), store.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version, applied_at FROM abfleet_schema_version ORDER BY version")) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + " " + rs.getTimestamp(2));
      }
    }
    return rows;
  }

  private static void execute(Store store, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(store.url(), store.user(), store.password());
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
