package dev.abfleet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TestPostgresTest {

  @ParameterizedTest
  @EnumSource(TestPostgres.Source.class)
  void eachTestGetsAnEmptyDatabaseOfItsOwnThatIsDroppedAfterwards(TestPostgres.Source source) throws Exception {
    String name;
    try (TestPostgres.Database db = TestPostgres.create(source)) {
      name = db.name();
      try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (x int)");
        s.execute("INSERT INTO t VALUES (42)");
        try (ResultSet r = s.executeQuery("SELECT current_database(), x FROM t")) {
          assertThat(r.next()).isTrue();
          assertThat(r.getString(1)).isEqualTo(name);
          assertThat(r.getInt(2)).isEqualTo(42);
        }
      }
      try (TestPostgres.Database other = TestPostgres.create(source)) {
        assertThat(other.name()).isNotEqualTo(name);
      }
      try (Connection c = DriverManager.getConnection(db.adminUrl(), db.user(), db.password());
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT count(*) FROM pg_database WHERE datname = '" + name + "'")) {
        r.next();
        assertThat(r.getInt(1)).isEqualTo(1);
      }
    }
  }
}
