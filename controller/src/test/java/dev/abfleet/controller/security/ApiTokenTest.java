package dev.abfleet.controller.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiTokenTest {
  @Test
  void formatIsAbfIdSecretAndParsesBack() {
    ApiToken t = ApiToken.generate();
    assertThat(t.value()).matches("abf_[0-9a-f]{12}_[A-Za-z0-9_-]{43}");
    assertThat(ApiToken.parse(t.value())).contains(t);
    assertThat(ApiToken.parse("  " + t.value() + "\n")).contains(t);
    assertThat(t.toString()).isEqualTo("abf_" + t.id() + "_...").doesNotContain(t.secret());
  }

  @Test
  void rejectsOtherShapes() {
    assertThat(ApiToken.parse("")).isEmpty();
    assertThat(ApiToken.parse("Bearer abc")).isEmpty();
    assertThat(ApiToken.parse("abf_XYZ123456789_" + "a".repeat(43))).isEmpty();
    assertThat(ApiToken.parse("abf_0123456789ab_" + "a".repeat(42))).isEmpty();
  }

  @Test
  void hashIsSha256OfSaltThenSecret() throws Exception {
    byte[] salt = new byte[16];
    salt[0] = 7;
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(salt);
    byte[] expected = sha.digest("s3cret".getBytes(StandardCharsets.US_ASCII));
    assertThat(ApiToken.hash(salt, "s3cret")).isEqualTo(expected);
  }

  @Test
  void idsAndSaltsDiffer() {
    Set<String> ids = new HashSet<>();
    Set<String> salts = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      ids.add(ApiToken.generate().id());
      salts.add(java.util.HexFormat.of().formatHex(ApiToken.newSalt()));
    }
    assertThat(ids).hasSize(200);
    assertThat(salts).hasSize(200);
  }
}
