package dev.abfleet.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A fresh, empty PostgreSQL database for one test, on one of two servers:
 *
 * <ul>
 *   <li>{@link Source#EXTERNAL}: the server named by {@code ABFLEET_TEST_PG_URL} (any database on
 *       it, e.g. {@code jdbc:postgresql://127.0.0.1:5432/postgres}), as the role
 *       {@code ABFLEET_TEST_PG_USER} (needs CREATEDB) with {@code ABFLEET_TEST_PG_PASSWORD}.
 *       {@code bin/test-postgres} starts Debian's server and prints these; {@code bin/test} and CI
 *       use it. Unset: the test is skipped, unless {@code ABFLEET_TEST_PG_REQUIRED=1} (set by
 *       {@code bin/test}), which makes a missing server a failure.
 *   <li>{@link Source#TESTCONTAINERS}: a PostgreSQL container, one per JVM, where a Docker engine
 *       answers ({@code DOCKER_HOST} or a Docker socket); skipped, with a line on stderr, where none does.
 * </ul>
 *
 * Each database is named {@code abfleet_t_<random>} and dropped by {@link Database#close()}.
 */
public final class TestPostgres {
  public enum Source { EXTERNAL, TESTCONTAINERS }

  /** JDBC coordinates of one test database; {@link #close()} drops it. */
  public record Database(Source source, String url, String user, String password, String name,
      String adminUrl) implements AutoCloseable {
    @Override
    public void close() {
      try (Connection c = DriverManager.getConnection(adminUrl, user, password);
          Statement s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      } catch (SQLException e) {
        System.err.println("testkit: could not drop test database " + name + ": " + e.getMessage());
      }
    }
  }

  private static final Pattern JDBC_PG = Pattern.compile("(jdbc:postgresql://[^/?]+)/([^?]*)(\\?.*)?");
  private static PostgreSQLContainer container;

  private TestPostgres() {}

  /** A new database on {@code source}'s server; aborts (skips) the test when that server is absent. */
  public static Database create(Source source) {
    return switch (source) {
      case EXTERNAL -> external();
      case TESTCONTAINERS -> containerized();
    };
  }

  private static Database external() {
    String url = System.getenv("ABFLEET_TEST_PG_URL");
    if (url == null || url.isBlank()) {
      String why = "ABFLEET_TEST_PG_URL is not set: the PostgreSQL tests on an external server are SKIPPED"
          + " (bin/test-postgres starts Debian's server and prints the variables)";
      if ("1".equals(System.getenv("ABFLEET_TEST_PG_REQUIRED"))) {
        throw new IllegalStateException(why.replace("are SKIPPED", "cannot run")
            + "; ABFLEET_TEST_PG_REQUIRED=1 makes this a failure");
      }
      System.err.println("testkit: " + why);
      Assumptions.abort(why);
    }
    String user = envOr("ABFLEET_TEST_PG_USER", "abfleet_test");
    String password = envOr("ABFLEET_TEST_PG_PASSWORD", "");
    return createOn(Source.EXTERNAL, url, user, password);
  }

  private static synchronized Database containerized() {
    if (container == null) {
      if (!DockerClientFactory.instance().isDockerAvailable()) {
        String why = "no Docker engine (DOCKER_HOST unset and no answering Docker socket): the Testcontainers"
            + " PostgreSQL path is SKIPPED; the same tests run on an external server via ABFLEET_TEST_PG_URL";
        System.err.println("testkit: " + why);
        Assumptions.abort(why);
      }
      container = new PostgreSQLContainer("postgres:15-alpine");
      container.start();
    }
    return createOn(Source.TESTCONTAINERS, container.getJdbcUrl(), container.getUsername(), container.getPassword());
  }

  private static Database createOn(Source source, String serverUrl, String user, String password) {
    Matcher m = JDBC_PG.matcher(serverUrl);
    if (!m.matches()) {
      throw new IllegalStateException("PostgreSQL URL '" + serverUrl
          + "': expected jdbc:postgresql://HOST:PORT/DATABASE, e.g. jdbc:postgresql://127.0.0.1:5432/postgres");
    }
    String name = "abfleet_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
    try (Connection c = DriverManager.getConnection(serverUrl, user, password);
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create a test database on " + serverUrl + " as " + user + ": "
          + e.getMessage() + " (the role needs CREATEDB; bin/test-postgres sets it up)", e);
    }
    String query = m.group(3) == null ? "" : m.group(3);
    return new Database(source, m.group(1) + "/" + name + query, user, password, name, serverUrl);
  }

  private static String envOr(String name, String fallback) {
    String v = System.getenv(name);
    return v == null ? fallback : v;
  }
}
