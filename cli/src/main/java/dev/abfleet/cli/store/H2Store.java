package dev.abfleet.cli.store;

import dev.abfleet.controller.ControllerSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Backup, restore and check of a stopped controller's H2 store ({@code DIR/controller.mv.db}).
 * A backup is H2's SQL script of the whole database, gzip-compressed: writing it reads every
 * row, and restoring it builds a fresh file, so a restore also compacts. The caller holds the
 * store's lock: H2 lets one process at a time open the file.
 */
final class H2Store {
  /** Base name of the database in the store directory (H2 adds .mv.db). */
  static final String NAME = "controller";

  /** What a check read. */
  record Checked(int tables, long rows, long experiments) {}

  private final Path dir;

  H2Store(Path dir) {
    this.dir = dir;
  }

  /** The database file. */
  Path file() {
    return dir.resolve(NAME + ".mv.db");
  }

  boolean exists() {
    return Files.isRegularFile(file());
  }

  /** Writes the whole store to {@code backup} (gzip-compressed SQL); returns what it read. */
  Checked backup(Path backup) throws SQLException {
    try (Connection c = open(true); Statement s = c.createStatement()) {
      Checked read = read(c);
      s.execute("SCRIPT TO '" + quote(backup.toAbsolutePath()) + "' COMPRESSION GZIP");
      return read;
    }
  }

  /**
   * Builds the store from {@code backup} (written by {@link #backup}); the store's file must not
   * exist. Returns what the restored store holds.
   */
  Checked restore(Path backup) throws SQLException {
    try (Connection c = DriverManager.getConnection(url(""), "sa", "");
        Statement s = c.createStatement()) {
      s.execute("RUNSCRIPT FROM '" + quote(backup.toAbsolutePath()) + "' COMPRESSION GZIP");
      return read(c);
    }
  }

  /** Opens the store read-only and reads every row of every table, every byte of every column. */
  Checked check() throws SQLException {
    try (Connection c = open(true)) {
      return read(c);
    }
  }

  private Connection open(boolean readOnly) throws SQLException {
    return DriverManager.getConnection(url(";IFEXISTS=TRUE" + (readOnly ? ";ACCESS_MODE_DATA=r" : "")),
        "sa", "");
  }

  private String url(String options) {
    return ControllerSettings.h2FileUrl(dir.resolve(NAME)) + options;
  }

  private static Checked read(Connection c) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES"
            + " WHERE TABLE_SCHEMA = 'PUBLIC' ORDER BY TABLE_NAME")) {
      while (rs.next()) {
        tables.add(rs.getString(1));
      }
    }
    long rows = 0;
    for (String table : tables) {
      rows += readAll(c, table);
    }
    long experiments = 0;
    if (tables.contains("event_journal")) {
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT \"persistence_id\") FROM \"event_journal\""
              + " WHERE \"persistence_id\" LIKE '" + dev.abfleet.controller.experiment.ExperimentEntity.TYPE_KEY.name() + "|%'")) {
        rs.next();
        experiments = rs.getLong(1);
      }
    }
    return new Checked(tables.size(), rows, experiments);
  }

  private static long readAll(Connection c, String table) throws SQLException {
    long rows = 0;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM \"" + table.replace("\"", "\"\"") + "\"")) {
      int columns = rs.getMetaData().getColumnCount();
      byte[] sink = new byte[8192];
      char[] chars = new char[8192];
      while (rs.next()) {
        for (int i = 1; i <= columns; i++) {
          Object v = rs.getObject(i);
          try {
            if (v instanceof Blob b) {
              try (InputStream in = b.getBinaryStream()) {
                while (in.read(sink) >= 0) {
                  // reading is the check
                }
              }
            } else if (v instanceof Clob cl) {
              try (Reader in = cl.getCharacterStream()) {
                while (in.read(chars) >= 0) {
                  // reading is the check
                }
              }
            }
          } catch (IOException e) {
            throw new SQLException("table " + table + ", row " + (rows + 1) + ": " + e.getMessage(), e);
          }
        }
        rows++;
      }
    }
    return rows;
  }

  private static String quote(Path p) {
    return p.toString().replace("'", "''");
  }
}
