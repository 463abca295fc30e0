package dev.abfleet.controller.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenBootstrapTest {
  private static final Security.Tls TLS = new Security.Tls(Path.of("ca"), Path.of("c"), Path.of("k"));

  @Test
  void writesAnOperatorTokenOwnerOnlyWhenTheStoreIsEmpty(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("a/b/operator.token");
    InMemoryTokenStore tokens = new InMemoryTokenStore();
    var id = TokenBootstrap.ensure(new Security(TLS, Security.AuthMode.TOKENS, file), tokens);

    assertThat(id).isPresent();
    String written = Files.readString(file).strip();
    ApiToken token = ApiToken.parse(written).orElseThrow();
    assertThat(token.id()).isEqualTo(id.get());
    var stored = tokens.find(token.id()).orElseThrow();
    assertThat(stored.role()).isEqualTo(Role.OPERATOR);
    assertThat(stored.name()).isEqualTo("bootstrap");
    assertThat(token.matches(stored.salt(), stored.hash())).isTrue();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }

  @Test
  void doesNothingWhenTokensExistOrAuthIsOff(@TempDir Path dir) {
    Path file = dir.resolve("operator.token");
    InMemoryTokenStore tokens = new InMemoryTokenStore();
    assertThat(TokenBootstrap.ensure(new Security(TLS, Security.AuthMode.NONE, file), tokens)).isEmpty();
    tokens.create("ops", Role.OPERATOR, Instant.now());
    assertThat(TokenBootstrap.ensure(new Security(TLS, Security.AuthMode.TOKENS, file), tokens)).isEmpty();
    assertThat(file).doesNotExist();
  }
}
