package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControllerStoreFailureTest {
  @TempDir Path dir;

  @Test
  void exitsNonZeroWithinSecondsWhenItsStoreCloses() throws Exception {
    Path home = dir.resolve("home");
    Process p = TestJvm.start(dir, "controller", ClosingStoreController.class, "controller", "--plaintext",
        "--grpc-port", "0", "--cluster-port", "0", "--home", home.toString());
    try {
      Eventually.until("the controller serving", Duration.ofSeconds(150), () -> {
        String err = TestJvm.read(dir, "controller.err");
        assertThat(p.isAlive()).as(err).isTrue();
        return err;
      }, err -> err.contains("abfleet controller: gRPC on"));

      Files.createFile(home.resolve("closed-store"));
      long closed = System.nanoTime();
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).as(TestJvm.read(dir, "controller.err")).isTrue();

      Duration down = Duration.ofNanos(System.nanoTime() - closed);
      String err = TestJvm.read(dir, "controller.err");
      assertThat(p.exitValue()).as(err).isEqualTo(ExitCodes.FAILED);
      assertThat(down).as(err).isLessThan(Duration.ofSeconds(15));
      assertThat(err).contains("abfleet controller: the event store jdbc:h2:file:"
          + home.resolve("store").resolve("controller") + " failed: ")
          .contains("abfleet store check");
    } finally {
      p.destroyForcibly();
    }
  }
}
