package dev.abfleet.controller.experiment;

import com.typesafe.config.Config;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The experiments' catalogue: one row per experiment in the table {@code abfleet_experiments}
 * (id, name, state, pairs done and wanted, submission time in ms, priority, message), written by
 * each entity after its writes and read by listings, so a page of 50 is one indexed query
 * instead of a replay of every experiment's journal. Rows are a cache of the journal: an entity
 * records its summary again when it recovers, and {@link ExperimentCatalog#backfill} writes the
 * rows of experiments that have none (a store from before the table, a crash between a journal
 * write and its row).
 *
 * <p>Reads and writes go through one thread and one connection, the latest summary per experiment
 * only (a burst of pairs costs one row write). One thread makes a listing see every row recorded
 * before it was asked for (an entity records before it replies, so a client that submitted and
 * then lists finds its experiment), and serializes a flood of listings instead of running it in
 * parallel against the store. One per actor system; inert when the journal is in memory.
 */
public final class CatalogTable implements Extension {
  private static final Logger log = LoggerFactory.getLogger(CatalogTable.class);
  static final String TABLE = "abfleet_experiments";
  private static final Id ID = new Id();
  private static final String COLUMNS =
      "id, name, state, pairs_done, pairs_wanted, created_at_ms, priority, message";

  private final String url;
  private final String user;
  private final String password;
  private final ExecutorService thread;
  // Latest summary per experiment not yet written; the writer takes them in arrival order.
  private final Map<String, ExperimentCatalog.Summary> waiting = new LinkedHashMap<>();
  private Connection connection;

  private CatalogTable(String url, String user, String password) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.thread = url.isEmpty() ? null : Executors.newSingleThreadExecutor(daemon("experiment-catalog"));
  }

  public static CatalogTable get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  /** Creates the table and its listing index when missing (store schema version 3). */
  public static void create(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id VARCHAR(256) NOT NULL PRIMARY KEY,"
          + " name VARCHAR(1024) NOT NULL, state VARCHAR(32) NOT NULL, pairs_done INTEGER NOT NULL,"
          + " pairs_wanted INTEGER NOT NULL, created_at_ms BIGINT NOT NULL,"
          + " priority VARCHAR(64) NOT NULL, message VARCHAR(4096) NOT NULL)");
      s.execute("CREATE INDEX IF NOT EXISTS " + TABLE + "_newest ON " + TABLE + " (created_at_ms, id)");
    }
  }

  /** Queues {@code summary} as its experiment's row; a later one for the same id replaces it. */
  public void record(ExperimentCatalog.Summary summary) {
    if (thread == null) {
      return;
    }
    boolean first;
    synchronized (waiting) {
      first = waiting.isEmpty();
      waiting.put(summary.id(), summary);
    }
    if (first) {
      try {
        thread.execute(this::drain);
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        // The node is stopping: the entity records again when it next recovers.
      }
    }
  }

  /**
   * Up to {@code limit} rows in {@code states} (empty = all), newest first (then by id), after
   * {@code after}.
   */
  CompletionStage<List<ExperimentCatalog.Summary>> page(Set<String> states,
      Optional<ExperimentCatalog.Cursor> after, int limit) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return query(states, after, limit);
      } catch (SQLException e) {
        connection = close(connection);
        throw new IllegalStateException("reading the experiments' catalogue: " + e.getMessage(), e);
      }
    }, thread);
  }

  /** The ids of every experiment that has a row. */
  CompletionStage<Set<String>> ids() {
    return CompletableFuture.supplyAsync(() -> {
      try (Statement s = connection().createStatement();
          ResultSet rs = s.executeQuery("SELECT id FROM " + TABLE)) {
        Set<String> ids = new HashSet<>();
        while (rs.next()) {
          ids.add(rs.getString(1));
        }
        return ids;
      } catch (SQLException e) {
        connection = close(connection);
        throw new IllegalStateException("reading the experiments' catalogue: " + e.getMessage(), e);
      }
    }, thread);
  }

  private List<ExperimentCatalog.Summary> query(Set<String> states,
      Optional<ExperimentCatalog.Cursor> after, int limit) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM " + TABLE + " WHERE 1 = 1");
    if (!states.isEmpty()) {
      sql.append(" AND state IN (").append(String.join(", ", states.stream().map(s -> "?").toList())).append(')');
    }
    after.ifPresent(a -> sql.append(" AND (created_at_ms < ? OR (created_at_ms = ? AND id > ?))"));
    sql.append(" ORDER BY created_at_ms DESC, id ASC LIMIT ?");
    try (PreparedStatement q = connection().prepareStatement(sql.toString())) {
      int i = 1;
      for (String s : states) {
        q.setString(i++, s);
      }
      if (after.isPresent()) {
        q.setLong(i++, after.get().createdAtMs());
        q.setLong(i++, after.get().createdAtMs());
        q.setString(i++, after.get().id());
      }
      q.setInt(i, limit);
      List<ExperimentCatalog.Summary> rows = new ArrayList<>();
      try (ResultSet rs = q.executeQuery()) {
        while (rs.next()) {
          rows.add(new ExperimentCatalog.Summary(rs.getString(1), rs.getString(2), rs.getString(3),
              rs.getInt(4), rs.getInt(5), rs.getLong(6), rs.getString(7), rs.getString(8)));
        }
      }
      return rows;
    }
  }

  private void drain() {
    while (true) {
      List<ExperimentCatalog.Summary> batch;
      synchronized (waiting) {
        if (waiting.isEmpty()) {
          return;
        }
        batch = List.copyOf(waiting.values());
        waiting.clear();
      }
      try {
        write(batch);
      } catch (SQLException e) {
        // A row is a cache of the journal: the entity writes it again when it recovers, and
        // backfill writes missing ones; the store watchdog handles a store that is gone.
        connection = close(connection);
        log.warn("could not write {} experiment(s) to the catalogue: {}", batch.size(), e.getMessage());
      }
    }
  }

  /**
   * Upserts {@code batch}: UPDATE, then INSERT when no row was there (SQL that H2 and PostgreSQL
   * both run; an experiment's entity lives on one node at a time, so two nodes never insert the
   * same id). The submission time is set by the first write only.
   */
  private void write(List<ExperimentCatalog.Summary> batch) throws SQLException {
    Connection c = connection();
    try (PreparedStatement update = c.prepareStatement("UPDATE " + TABLE + " SET name = ?, state = ?,"
        + " pairs_done = ?, pairs_wanted = ?, priority = ?, message = ? WHERE id = ?");
        PreparedStatement insert = c.prepareStatement("INSERT INTO " + TABLE + " (" + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (ExperimentCatalog.Summary s : batch) {
        update.setString(1, s.name());
        update.setString(2, s.state());
        update.setInt(3, s.pairsDone());
        update.setInt(4, s.pairsWanted());
        update.setString(5, s.priority());
        update.setString(6, clip(s.message()));
        update.setString(7, s.id());
        if (update.executeUpdate() == 0 && !insert(insert, s)) {
          // Another node inserted it meanwhile (two nodes backfilling at start): update that row.
          update.executeUpdate();
        }
      }
    }
  }

  /** Inserts {@code s}; false when a row with its id exists already. */
  private static boolean insert(PreparedStatement insert, ExperimentCatalog.Summary s) throws SQLException {
    insert.setString(1, s.id());
    insert.setString(2, s.name());
    insert.setString(3, s.state());
    insert.setInt(4, s.pairsDone());
    insert.setInt(5, s.pairsWanted());
    insert.setLong(6, s.createdAtMs());
    insert.setString(7, s.priority());
    insert.setString(8, clip(s.message()));
    try {
      insert.executeUpdate();
      return true;
    } catch (SQLException e) {
      // 23505: unique violation (SQL standard; H2 and PostgreSQL both use it).
      if ("23505".equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  private static String clip(String message) {
    return message.length() <= 4096 ? message : message.substring(0, 4093) + "...";
  }

  private Connection connection() throws SQLException {
    if (connection == null) {
      connection = DriverManager.getConnection(url, user, password);
    }
    return connection;
  }

  private static Connection close(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // broken already
      }
    }
    return null;
  }

  /**
   * Writes what waits, closes the connection and stops the thread; waits up to 5 s for it. After
   * the actor system has stopped (nothing records any more), so that the H2 file is closed when
   * the node's close returns. Idempotent.
   */
  public void close() {
    if (thread == null || thread.isShutdown()) {
      return;
    }
    try {
      thread.execute(() -> connection = close(connection));
    } catch (java.util.concurrent.RejectedExecutionException closedMeanwhile) {
      return;
    }
    thread.shutdown();
    try {
      thread.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  private static final class Id extends ExtensionId<CatalogTable> {
    @Override
    public CatalogTable createExtension(ActorSystem<?> system) {
      Config c = system.settings().config();
      boolean jdbc = "jdbc-journal".equals(c.getString("pekko.persistence.journal.plugin"));
      String db = "pekko-persistence-jdbc.shared-databases.slick.db.";
      CatalogTable table = jdbc
          ? new CatalogTable(c.getString(db + "url"), c.getString(db + "user"), c.getString(db + "password"))
          : new CatalogTable("", "", "");
      system.getWhenTerminated().thenRun(table::close);
      return table;
    }
  }
}
