package dev.abfleet.controller.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.OptionalInt;

/**
 * The version of the event store's schema, kept in the table {@code abfleet_schema_version}
 * (one row per version applied: version, applied_at). Version 1 is pekko-persistence-jdbc's
 * journal, snapshot and durable-state tables as its {@code SchemaUtils} creates them; version 2
 * adds the API tokens' table {@code abfleet_tokens}; version 3 the experiments' catalogue
 * {@code abfleet_experiments} (filled from the journal when a node starts).
 *
 * <p>Plain JDBC, so it works the same on H2 and PostgreSQL; the caller creates the tables of a
 * version (see {@link #plan}) and then {@link #record}s it.
 */
public final class StoreSchema {
  /** The schema version this build writes and reads. */
  public static final int CURRENT = 3;

  static final String TABLE = "abfleet_schema_version";

  /** What to do with a store found at {@code found} (empty: no version recorded yet). */
  public enum Plan { CREATE, NOTHING }

  private StoreSchema() {}

  /**
   * Creates the version table when missing and returns the newest version recorded, if any.
   *
   * @throws SQLException when the database cannot be reached
   */
  public static OptionalInt found(String url, String user, String password) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user, password);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + TABLE
          + " (version INTEGER NOT NULL PRIMARY KEY, applied_at TIMESTAMP NOT NULL)");
      try (ResultSet rs = s.executeQuery("SELECT MAX(version) FROM " + TABLE)) {
        rs.next();
        int v = rs.getInt(1);
        return rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(v);
      }
    }
  }

  /**
   * NOTHING for this build's version; CREATE for a store without a recorded version (new, or
   * written before versions were recorded) or an older one: table creation is idempotent, and
   * each version so far only adds tables.
   *
   * @throws IllegalStateException for a store written by a newer build, naming both versions
   */
  public static Plan plan(OptionalInt found, String storeName) {
    if (found.isEmpty()) {
      return Plan.CREATE;
    }
    int v = found.getAsInt();
    if (v > CURRENT) {
      throw new IllegalStateException("the event store " + storeName + " has schema version " + v
          + " but this controller knows only up to version " + CURRENT
          + "; run the abfleet release that wrote it (or a newer one), or point controller.store"
          + " at another database");
    }
    return v == CURRENT ? Plan.NOTHING : Plan.CREATE;
  }

  /** Records that {@code version} has been applied now; a repeat is harmless. */
  public static void record(String url, String user, String password, int version)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user, password);
        var insert = c.prepareStatement("INSERT INTO " + TABLE + " (version, applied_at)"
            + " SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM " + TABLE + " WHERE version = ?)")) {
      insert.setInt(1, version);
      insert.setTimestamp(2, Timestamp.from(Instant.now()));
      insert.setInt(3, version);
      insert.executeUpdate();
    }
  }

  /** A store URL without its parameters (for messages: no credentials, no file options). */
  public static String describe(String url) {
    int semi = url.indexOf(';');
    int query = url.indexOf('?');
    int end = semi >= 0 ? semi : query >= 0 ? query : url.length();
    return url.substring(0, end);
  }
}
