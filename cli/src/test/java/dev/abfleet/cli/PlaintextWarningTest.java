package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A standalone controller without TLS says so as a warning once it serves, naming the setting and the fix. */
class PlaintextWarningTest {
  @TempDir Path dir;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void plaintextControllerWarnsOnceItServes() throws Exception {
    Path home = Files.createDirectory(dir.resolve("home"));
    Process controller = TestJvm.start(dir, "ctl", Main.class, "controller", "--plaintext", "--grpc-port", "0",
        "--cluster-port", "0", "--home", home.toString());
    try {
      String err = Eventually.until("the controller warning that it serves plaintext", Duration.ofSeconds(150), () -> {
        String text = TestJvm.read(dir, "ctl.err");
        assertThat(controller.isAlive()).as(text).isTrue();
        return text;
      }, text -> text.contains("is plaintext without client authentication"));

      assertThat(err.lines().filter(l -> l.contains("plaintext without client authentication")))
          .singleElement().asString().contains(" WARN ").contains("(--plaintext)")
          .contains("set controller.tls (abfleet certs init)");
    } finally {
      controller.destroy();
      if (!controller.waitFor(30, TimeUnit.SECONDS)) {
        controller.destroyForcibly();
      }
    }
  }
}
