package dev.abfleet.controller.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the event store from one connection of its own and declares it failed, once, so that
 * the controller goes down instead of running on as a zombie (answering ListHosts while every
 * write fails). An embedded H2 database that ran out of memory or met a corrupted page closes
 * itself for good: every later call fails with "The database has been closed" and no retry
 * helps, so those errors fail at once. Any other failure (a PostgreSQL restart, a network
 * partition) fails only once it has lasted {@code grace}.
 */
public final class StoreWatchdog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StoreWatchdog.class);
  private static final int QUERY_TIMEOUT_S = 5;

  /**
   * H2 error codes after which its database stays closed in this process: DATABASE_IS_CLOSED,
   * DATABASE_CALLED_AT_SHUTDOWN, FILE_CORRUPTED_1, OUT_OF_MEMORY, IO_EXCEPTION_1,
   * FILE_VERSION_ERROR_1 (org.h2.api.ErrorCode).
   */
  static final Set<Integer> H2_FATAL = Set.of(90098, 90121, 90030, 90108, 90028, 90048);

  /** Why the store was declared failed, and when. */
  public record Failure(String store, String cause, Instant at) {
    /** The log line: the cause and what to do. */
    public String message() {
      return "the event store " + store + " failed: " + cause + "; this controller stops rather than"
          + " run without its store. Check the store before restarting (abfleet store check), and"
          + " restore the last backup (abfleet store restore) if the check fails";
    }
  }

  private final String url;
  private final String user;
  private final String password;
  private final String name;
  private final Duration grace;
  private final Clock clock;
  private final CompletableFuture<Failure> failed = new CompletableFuture<>();
  private final ScheduledExecutorService timer;
  private Connection connection;
  private Instant failingSince;

  private StoreWatchdog(String url, String user, String password, Duration grace, Clock clock) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.name = StoreSchema.describe(url);
    this.grace = grace;
    this.clock = clock;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "store-watchdog");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Probes the store every {@code interval} until it fails or {@link #close()}. Its connection is
   * opened now, while the store is known to work, and kept: a new connection to an H2 database
   * that closed itself would reopen it and hide the failure from this probe, while the
   * journal's pool keeps its closed connections.
   *
   * @param grace how long a failure that may pass (not a closed or corrupted H2 database) must
   *     last before the store is declared failed
   */
  public static StoreWatchdog start(String url, String user, String password, Duration interval,
      Duration grace) {
    StoreWatchdog w = new StoreWatchdog(url, user, password, grace, Clock.systemUTC());
    w.probe();
    w.timer.scheduleWithFixedDelay(w::probe, interval.toMillis(), interval.toMillis(),
        TimeUnit.MILLISECONDS);
    return w;
  }

  /** Completes (once) when the store is declared failed; never when it stays healthy. */
  public CompletionStage<Failure> failure() {
    return failed;
  }

  /** True once the store has been declared failed. */
  public boolean hasFailed() {
    return failed.isDone();
  }

  private void probe() {
    if (failed.isDone()) {
      return;
    }
    try {
      if (connection == null) {
        connection = DriverManager.getConnection(url, user, password);
      }
      try (Statement s = connection.createStatement()) {
        s.setQueryTimeout(QUERY_TIMEOUT_S);
        s.execute("SELECT 1");
      }
      if (failingSince != null) {
        log.info("the event store {} answers again", name);
      }
      failingSince = null;
    } catch (SQLException e) {
      onError(e);
    } catch (RuntimeException | OutOfMemoryError e) {
      declare(e.toString());
    }
  }

  private void onError(SQLException e) {
    closeConnection();
    Instant now = clock.instant();
    if (isFatal(e)) {
      declare(e.getMessage());
      return;
    }
    if (failingSince == null) {
      failingSince = now;
      log.warn("the event store {} does not answer: {}; the controller stops if this lasts {} s",
          name, e.getMessage(), grace.toSeconds());
    }
    if (!now.isBefore(failingSince.plus(grace))) {
      declare("no answer for " + Duration.between(failingSince, now).toSeconds() + " s; last error: "
          + e.getMessage());
    }
  }

  /** True for an error after which the store stays unusable in this process. */
  static boolean isFatal(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError) {
        return true;
      }
      if (t instanceof SQLException sql && sql.getClass().getName().startsWith("org.h2.")
          && H2_FATAL.contains(sql.getErrorCode())) {
        return true;
      }
    }
    return false;
  }

  private void declare(String cause) {
    Failure f = new Failure(name, cause, clock.instant());
    log.error("{}", f.message());
    failed.complete(f);
    timer.shutdown();
  }

  private void closeConnection() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // The connection is broken already; closing it is only tidying up.
      }
      connection = null;
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(QUERY_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeConnection();
  }
}
