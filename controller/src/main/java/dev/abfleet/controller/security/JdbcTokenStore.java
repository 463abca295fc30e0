package dev.abfleet.controller.security;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tokens in the table {@code abfleet_tokens} of the controller's JDBC database (the journal's):
 * every node reads the same rows, and each call looks its token up by primary key, so a revoke
 * is seen by the next call on any node. Plain JDBC, the same on H2 and PostgreSQL.
 *
 * <p>One connection, reopened when it breaks; calls on it are serialized (a lookup by primary
 * key takes well under a millisecond).
 */
public final class JdbcTokenStore implements TokenStore, AutoCloseable {
  static final String TABLE = "abfleet_tokens";
  private static final String COLUMNS = "id, name, role, salt, hash, created_at, revoked_at";

  private final String url;
  private final String user;
  private final String password;
  private Connection connection;
  private long lastUsedNanos;
  private static final long VALIDATE_AFTER_IDLE_NANOS = 1_000_000_000L;

  private JdbcTokenStore(String url, String user, String password) {
    this.url = url;
    this.user = user;
    this.password = password;
  }

  /**
   * Opens the store, creating its table when missing.
   *
   * @throws IllegalStateException naming the database when it cannot be reached
   */
  public static JdbcTokenStore open(String url, String user, String password) {
    JdbcTokenStore store = new JdbcTokenStore(url, user, password);
    try {
      createTable(url, user, password);
    } catch (SQLException e) {
      throw store.failed("create the table " + TABLE, e);
    }
    return store;
  }

  /** Creates the token table if it does not exist; idempotent. */
  public static void createTable(String url, String user, String password) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user, password);
        Statement s = c.createStatement()) {
      String bytes = binaryType(c);
      s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id VARCHAR(12) NOT NULL PRIMARY KEY,"
          + " name VARCHAR(64) NOT NULL, role VARCHAR(16) NOT NULL, salt " + bytes + " NOT NULL,"
          + " hash " + bytes + " NOT NULL, created_at TIMESTAMP NOT NULL, revoked_at TIMESTAMP)");
    }
  }

  // PostgreSQL has no VARBINARY; H2 reads BYTEA too only in PostgreSQL mode.
  private static String binaryType(Connection c) throws SQLException {
    return c.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres")
        ? "BYTEA" : "VARBINARY(32)";
  }

  @Override
  public synchronized void insert(StoredToken t) {
    try (PreparedStatement ps = connection().prepareStatement(
        "INSERT INTO " + TABLE + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, t.id());
      ps.setString(2, t.name());
      ps.setString(3, t.role().wire());
      ps.setBytes(4, t.salt());
      ps.setBytes(5, t.hash());
      ps.setTimestamp(6, Timestamp.from(t.createdAt()));
      ps.setTimestamp(7, t.revokedAt() == null ? null : Timestamp.from(t.revokedAt()));
      ps.executeUpdate();
    } catch (SQLException e) {
      throw failed("store token " + ApiToken.shown(t.id()), e);
    }
  }

  @Override
  public synchronized Optional<StoredToken> find(String id) {
    try (PreparedStatement ps = connection().prepareStatement(
        "SELECT " + COLUMNS + " FROM " + TABLE + " WHERE id = ?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(row(rs)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw failed("look up token " + ApiToken.shown(id), e);
    }
  }

  @Override
  public synchronized List<StoredToken> list() {
    try (PreparedStatement ps = connection().prepareStatement(
        "SELECT " + COLUMNS + " FROM " + TABLE + " ORDER BY created_at, id");
        ResultSet rs = ps.executeQuery()) {
      List<StoredToken> all = new ArrayList<>();
      while (rs.next()) {
        all.add(row(rs));
      }
      return all;
    } catch (SQLException e) {
      throw failed("list tokens", e);
    }
  }

  @Override
  public synchronized Optional<StoredToken> revoke(String id, Instant now) {
    try (PreparedStatement ps = connection().prepareStatement(
        "UPDATE " + TABLE + " SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")) {
      ps.setTimestamp(1, Timestamp.from(now));
      ps.setString(2, id);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw failed("revoke token " + ApiToken.shown(id), e);
    }
    return find(id);
  }

  @Override
  public synchronized boolean isEmpty() {
    try (Statement s = connection().createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + TABLE)) {
      rs.next();
      return rs.getLong(1) == 0;
    } catch (SQLException e) {
      throw failed("count tokens", e);
    }
  }

  @Override
  public synchronized void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // Closing a broken connection: nothing left to release.
      }
      connection = null;
    }
  }

  /**
   * The open connection; one idle for more than a second is checked first (a round trip on
   * PostgreSQL), so calls in a busy stretch do not pay for a check each.
   */
  private Connection connection() throws SQLException {
    long now = System.nanoTime();
    if (connection == null || (now - lastUsedNanos > VALIDATE_AFTER_IDLE_NANOS && !connection.isValid(2))) {
      close();
      connection = DriverManager.getConnection(url, user, password);
    }
    lastUsedNanos = now;
    return connection;
  }

  private static StoredToken row(ResultSet rs) throws SQLException {
    Timestamp revoked = rs.getTimestamp(7);
    return new StoredToken(rs.getString(1), rs.getString(2), Role.of(rs.getString(3)),
        rs.getBytes(4), rs.getBytes(5), rs.getTimestamp(6).toInstant(),
        revoked == null ? null : revoked.toInstant());
  }

  private IllegalStateException failed(String what, SQLException e) {
    // A broken connection is reopened on the next call.
    close();
    String name = url.contains(";") ? url.substring(0, url.indexOf(';')) : url;
    return new IllegalStateException("cannot " + what + " in " + name + ": " + e.getMessage(), e);
  }
}
