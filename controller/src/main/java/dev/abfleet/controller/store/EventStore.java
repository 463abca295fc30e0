package dev.abfleet.controller.store;

import dev.abfleet.controller.ControllerSettings;
import java.sql.SQLException;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Setting up the JDBC event store of {@link ControllerSettings}: its versioned schema. */
public final class EventStore {
  private static final Logger log = LoggerFactory.getLogger(EventStore.class);
  private static final Duration SCHEMA_TIMEOUT = Duration.ofSeconds(30);

  private EventStore() {}

  /**
   * The schema version recorded in the store (creating the version table if need be). Nodes of
   * a cluster that start together race to create that table on a shared database too (PostgreSQL
   * then fails one CREATE TABLE IF NOT EXISTS with "type ... already exists"): a failed attempt is
   * retried, as in {@link #createSchema}.
   *
   * @throws IllegalStateException when the store cannot be reached, or was written by a newer build
   */
  public static OptionalInt schemaVersion(ControllerSettings settings) {
    for (int attempt = 1; ; attempt++) {
      try {
        OptionalInt found = StoreSchema.found(settings.storeUrl(), settings.storeUser(),
            settings.storePassword());
        StoreSchema.plan(found, name(settings));
        return found;
      } catch (SQLException e) {
        if (attempt == SCHEMA_ATTEMPTS) {
          throw unreachable(settings, e.toString(), e);
        }
        log.info("reading the event store's schema version failed (attempt {} of {}): {}", attempt,
            SCHEMA_ATTEMPTS, e.toString());
        pause(500L * attempt);
      }
    }
  }

  private static final int SCHEMA_ATTEMPTS = 4;

  /**
   * Creates the event store's tables (idempotently) and records this build's schema version.
   * Nodes of a cluster that start together race for it on a shared database: the loser's CREATE
   * fails (duplicate table or type), and the next attempt sees the tables and does nothing. Only
   * when every attempt fails is it an error.
   */
  public static void createSchema(ActorSystem<?> system, ControllerSettings settings, OptionalInt found) {
    for (int attempt = 1; ; attempt++) {
      try {
        SchemaUtils.createIfNotExists(system).toCompletableFuture()
            .get(SCHEMA_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        dev.abfleet.controller.security.JdbcTokenStore.createTable(settings.storeUrl(),
            settings.storeUser(), settings.storePassword());
        try (var c = java.sql.DriverManager.getConnection(settings.storeUrl(), settings.storeUser(),
            settings.storePassword())) {
          dev.abfleet.controller.experiment.CatalogTable.create(c);
        }
        StoreSchema.record(settings.storeUrl(), settings.storeUser(), settings.storePassword(),
            StoreSchema.CURRENT);
        log.info("event store {}: schema version {} {}", name(settings), StoreSchema.CURRENT,
            found.isEmpty() ? "created" : "upgraded from " + found.getAsInt());
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while creating the event store schema", e);
      } catch (ExecutionException | SQLException | TimeoutException e) {
        String why = e instanceof ExecutionException ? String.valueOf(e.getCause()) : e.toString();
        if (attempt == SCHEMA_ATTEMPTS) {
          throw unreachable(settings, why, e);
        }
        log.info("creating the event store schema failed (attempt {} of {}): {}", attempt, SCHEMA_ATTEMPTS, why);
        pause(500L * attempt);
      }
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating the event store schema", e);
    }
  }

  private static IllegalStateException unreachable(ControllerSettings settings, String why, Exception e) {
    return new IllegalStateException("cannot set up the event store " + name(settings) + ": "
        + why + "; check controller.store (URL, user, password) and, for H2, that no other"
        + " controller holds the file", e);
  }

  /** The store's JDBC URL without its parameters, for messages and logs. */
  public static String name(ControllerSettings settings) {
    return StoreSchema.describe(settings.storeUrl());
  }
}
