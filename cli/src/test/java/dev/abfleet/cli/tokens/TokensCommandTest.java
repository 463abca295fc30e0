package dev.abfleet.cli.tokens;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.security.Security;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** abfleet tokens against an in-process TLS controller with token auth. */
class TokensCommandTest {
  private final StringWriter err = new StringWriter();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private PrintStream stdout;
  private PrintStream stderr;

  @BeforeEach
  void capture() {
    stdout = System.out;
    stderr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(stdout);
    System.setErr(stderr);
  }

  private int run(String... args) {
    return Main.run(new PrintWriter(err, true), args);
  }

  private String stdout() {
    String s = out.toString(StandardCharsets.UTF_8);
    out.reset();
    return s;
  }

  /** A TLS controller with token auth, its CA and certificate made by `abfleet certs`. */
  private ControllerNode tlsTokenController(Path certs, Path bootstrap) throws Exception {
    assertThat(run("certs", "init", "--dir", certs.toString())).isZero();
    assertThat(run("certs", "issue", "--controller", "c", "--san", "127.0.0.1", "--dir", certs.toString())).isZero();
    return ControllerNode.start(ControllerSettings.inMemory().withSecurity(new Security(
        new Security.Tls(certs.resolve("ca.pem"), certs.resolve("c.pem"), certs.resolve("c-key.pem")),
        Security.AuthMode.TOKENS, bootstrap)));
  }

  @Test
  void createListRevokeWithTheBootstrapToken(@TempDir Path dir) throws Exception {
    Path certs = dir.resolve("certs");
    Path bootstrap = dir.resolve("home/controller/operator.token");
    try (ControllerNode node = tlsTokenController(certs, bootstrap)) {
      String target = "127.0.0.1:" + node.grpcPort();
      String ca = certs.resolve("ca.pem").toString();
      stdout();

      assertThat(run("tokens", "create", "--name", "ci", "--role", "submit", "--controller", target,
          "--ca", ca, "--token-file", bootstrap.toString())).isZero();
      String token = stdout().strip();
      assertThat(token).matches("abf_[0-9a-f]{12}_[A-Za-z0-9_-]{43}");
      String id = token.substring(4, 16);
      Path ciFile = dir.resolve("ci.token");
      Files.writeString(ciFile, token + "\n");

      assertThat(run("tokens", "list", "--controller", target, "--ca", ca, "--token-file", bootstrap.toString()))
          .isZero();
      String list = stdout();
      assertThat(list).startsWith("ID            ROLE      CREATED").contains(id + "  submit")
          .contains("bootstrap").doesNotContain(token);

      // A submit token may not manage tokens: one line naming the role, exit 2.
      assertThat(run("tokens", "list", "--controller", target, "--ca", ca, "--token-file", ciFile.toString()))
          .isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString()).startsWith("abfleet: fleet.v1.AuthService/ListTokens needs role operator;")
          .endsWith("(ci) has role submit" + System.lineSeparator());
      err.getBuffer().setLength(0);

      assertThat(run("tokens", "revoke", id, "--controller", target, "--ca", ca, "--token-file",
          bootstrap.toString())).isZero();
      assertThat(stdout()).isEqualTo("token " + id + " (ci, role submit) revoked\n");
      assertThat(run("hosts", "list", "--controller", target, "--ca", ca, "--token-file", ciFile.toString()))
          .isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString()).isEqualTo("abfleet: token abf_" + id + "_... is revoked; ask an operator"
          + " for a new one (`abfleet tokens create`)" + System.lineSeparator());
      err.getBuffer().setLength(0);

      assertThat(run("tokens", "list", "--controller", target, "--ca", ca)).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString()).isEqualTo("abfleet: no API token: pass --token-file FILE or set"
          + " ABFLEET_TOKEN; create one with `abfleet tokens create`" + System.lineSeparator());
      err.getBuffer().setLength(0);

      assertThat(run("tokens", "create", "--name", "x", "--role", "admin", "--controller", target, "--ca", ca,
          "--token-file", bootstrap.toString())).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString()).contains("role 'admin': expected one of read, submit, operator");
    }
  }

  @Test
  void createWritesTheTokenToANewFileOnlyItsOwnerCanRead(@TempDir Path dir) throws Exception {
    Path certs = dir.resolve("certs");
    Path bootstrap = dir.resolve("home/controller/operator.token");
    try (ControllerNode node = tlsTokenController(certs, bootstrap)) {
      String[] auth = {"--controller", "127.0.0.1:" + node.grpcPort(), "--ca", certs.resolve("ca.pem").toString(),
          "--token-file", bootstrap.toString()};
      Path file = dir.resolve("ci.token");
      stdout();

      assertThat(run(concat(new String[] {"tokens", "create", "--name", "ci", "--role", "submit", "--output",
          file.toString()}, auth))).isZero();

      assertThat(stdout()).isEmpty();
      assertThat(Files.readString(file)).matches("abf_[0-9a-f]{12}_[A-Za-z0-9_-]{43}\n");
      assertThat(Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(
          java.nio.file.attribute.PosixFilePermission.OWNER_READ,
          java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
      String first = Files.readString(file);

      assertThat(run(concat(new String[] {"tokens", "create", "--name", "ci2", "--role", "submit", "--output",
          file.toString()}, auth))).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString()).contains("--output " + file + ": exists; name a new file");
      assertThat(Files.readString(file)).isEqualTo(first);
      assertThat(run(concat(new String[] {"tokens", "list"}, auth))).isZero();
      assertThat(stdout()).doesNotContain("ci2");
    }
  }

  private static String[] concat(String[] a, String[] b) {
    return java.util.stream.Stream.concat(java.util.Arrays.stream(a), java.util.Arrays.stream(b))
        .toArray(String[]::new);
  }
}
