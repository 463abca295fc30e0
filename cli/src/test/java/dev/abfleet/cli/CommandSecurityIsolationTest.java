package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.link.ChannelSecurity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commands run one after another in one JVM (tests, an embedding tool) must not inherit an
 * earlier command's --ca or token: a CA file deleted since would fail the next command's channel,
 * and code that opens a client outside any command would speak TLS to a plaintext controller.
 */
class CommandSecurityIsolationTest {
  private final StringWriter err = new StringWriter();

  @Test
  void aCommandStartsFromTheDefaultChannelSecurity(@TempDir Path dir) throws Exception {
    ClientAuthOptions earlier = new ClientAuthOptions();
    earlier.ca = Files.writeString(dir.resolve("ca.pem"), "not read here");
    ControllerAddress.check("127.0.0.1:7070", earlier);
    assertThat(ControllerAddress.security()).isNotEqualTo(ChannelSecurity.DEFAULT);

    assertThat(Main.run(new PrintWriter(err, true), "--version")).isEqualTo(ExitCodes.OK);

    assertThat(ControllerAddress.security()).isEqualTo(ChannelSecurity.DEFAULT);
  }

  @Test
  void aCommandsCaDoesNotOutliveIt(@TempDir Path dir) throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "not a certificate");
    assertThat(Main.run(new PrintWriter(err, true), "tokens", "list", "--controller", "127.0.0.1:1",
        "--ca", ca.toString())).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("cannot use --ca " + ca);

    assertThat(ControllerAddress.security()).isEqualTo(ChannelSecurity.DEFAULT);
  }
}
