package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** abfleet worker: mTLS flags or --plaintext to loopback; errors name the missing flag. */
class WorkerSecurityOptionsTest {
  private final StringWriter err = new StringWriter();

  private int worker(String... args) {
    String[] argv = new String[args.length + 1];
    argv[0] = "worker";
    System.arraycopy(args, 0, argv, 1, args.length);
    return Main.run(new PrintWriter(err, true), argv);
  }

  @Test
  void withoutCertificatesOrPlaintextTheMissingFlagIsNamed(@TempDir Path dir) {
    assertThat(worker("--controller", "127.0.0.1:1", "--host-id", "h1", "--home", dir.toString()))
        .isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).startsWith("abfleet: --ca missing; a worker connects with --ca, --cert and"
        + " --key (`abfleet certs issue --worker HOST_ID` makes the certificate), or with --plaintext to a"
        + " loopback controller");
  }

  @Test
  void aCaWithoutItsCertificateNamesCert(@TempDir Path dir) throws Exception {
    Path ca = java.nio.file.Files.writeString(dir.resolve("ca.pem"), "x");
    assertThat(worker("--controller", "ctl.example.org:7070", "--host-id", "h1", "--ca", ca.toString(),
        "--home", dir.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).startsWith("abfleet: --cert missing;");
  }

  @Test
  void plaintextIsOnlyForLoopback(@TempDir Path dir) {
    assertThat(worker("--controller", "127.0.0.1:7070,10.1.2.3:7070", "--host-id", "h1", "--plaintext",
        "--home", dir.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).startsWith("abfleet: --plaintext to 10.1.2.3:7070: plaintext only to a"
        + " loopback controller;");
  }
}
