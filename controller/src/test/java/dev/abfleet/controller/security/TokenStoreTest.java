package dev.abfleet.controller.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.testkit.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Token stores keep salted hashes only, find by id, and revoke for every reader at once. */
class TokenStoreTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void inMemory() {
    behaves(new InMemoryTokenStore(), new InMemoryTokenStore());
  }

  @Test
  void h2(@TempDir Path dir) throws Exception {
    String url = ControllerSettings.h2FileUrl(dir.resolve("store"));
    try (JdbcTokenStore a = JdbcTokenStore.open(url, "sa", "");
        JdbcTokenStore b = JdbcTokenStore.open(url, "sa", "")) {
      behaves(a, b);
    }
    assertNoSecretStored(url, "sa", "");
  }

  @ParameterizedTest
  @EnumSource(TestPostgres.Source.class)
  void postgres(TestPostgres.Source source) throws Exception {
    try (TestPostgres.Database db = TestPostgres.create(source);
        JdbcTokenStore a = JdbcTokenStore.open(db.url(), db.user(), db.password());
        JdbcTokenStore b = JdbcTokenStore.open(db.url(), db.user(), db.password())) {
      behaves(a, b);
      assertNoSecretStored(db.url(), db.user(), db.password());
    }
  }

  @Test
  void openingTwiceKeepsTheTokens(@TempDir Path dir) {
    String url = ControllerSettings.h2FileUrl(dir.resolve("store"));
    String id;
    try (JdbcTokenStore first = JdbcTokenStore.open(url, "sa", "")) {
      id = first.create("ci", Role.SUBMIT, T0).token().id();
    }
    try (JdbcTokenStore again = JdbcTokenStore.open(url, "sa", "")) {
      assertThat(again.find(id)).hasValueSatisfying(t -> assertThat(t.role()).isEqualTo(Role.SUBMIT));
    }
  }

  /** {@code a} and {@code b} are two views of one store (two nodes of a cluster), or two stores. */
  private static void behaves(TokenStore a, TokenStore b) {
    boolean shared = !(a instanceof InMemoryTokenStore);
    assertThat(a.isEmpty()).isTrue();
    TokenStore.Created ci = a.create("ci-nightly", Role.SUBMIT, T0);
    TokenStore.Created ops = a.create("ops", Role.OPERATOR, T0.plusSeconds(1));
    assertThat(a.isEmpty()).isFalse();

    TokenStore.StoredToken found = a.find(ci.token().id()).orElseThrow();
    assertThat(found.name()).isEqualTo("ci-nightly");
    assertThat(found.role()).isEqualTo(Role.SUBMIT);
    assertThat(found.salt()).hasSize(16);
    assertThat(found.hash()).hasSize(32).isNotEqualTo(ci.token().secret().getBytes());
    assertThat(ci.token().matches(found.salt(), found.hash())).isTrue();
    assertThat(new ApiToken(ci.token().id(), ops.token().secret()).matches(found.salt(), found.hash()))
        .isFalse();
    assertThat(a.list()).extracting(TokenStore.StoredToken::name).containsExactly("ci-nightly", "ops");
    assertThat(a.find("000000000000")).isEmpty();

    Instant revokedAt = T0.plus(1, ChronoUnit.HOURS);
    assertThat(a.revoke(ci.token().id(), revokedAt)).hasValueSatisfying(t -> assertThat(t.revoked()).isTrue());
    // A second revoke keeps the first time.
    assertThat(a.revoke(ci.token().id(), revokedAt.plusSeconds(60)).orElseThrow().revokedAt())
        .isEqualTo(revokedAt);
    assertThat(a.revoke("ffffffffffff", revokedAt)).isEmpty();
    if (shared) {
      // Another node sees the revoke on its next lookup: nothing is cached.
      assertThat(b.find(ci.token().id()).orElseThrow().revoked()).isTrue();
      assertThat(b.find(ops.token().id()).orElseThrow().revoked()).isFalse();
    }
  }

  private static void assertNoSecretStored(String url, String user, String password) throws Exception {
    try (Connection c = DriverManager.getConnection(url, user, password);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM " + JdbcTokenStore.TABLE)) {
      int columns = rs.getMetaData().getColumnCount();
      assertThat(columns).isEqualTo(7);
      int rows = 0;
      while (rows++ >= 0 && rs.next()) {
        for (int i = 1; i <= columns; i++) {
          assertThat(String.valueOf(rs.getObject(i))).doesNotStartWith("abf_");
        }
      }
      assertThat(rows).isGreaterThan(1);
    }
  }
}
