package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Against consoles of real arm64 boots (see src/test/resources/vz/README.md). */
class ConsoleSetupErrorsTest {

  private static String console(String name) throws IOException {
    try (InputStream in = ConsoleSetupErrorsTest.class.getResourceAsStream("/vz/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void findsInitsSetupErrorOnTheConsoleOfAKernelWithoutVirtiofs() throws Exception {
    var lines = ConsoleSetupErrors.lines(console("console-no-virtiofs.txt"));

    assertThat(lines).containsExactly("{\"event\":\"setup_error\",\"step\":\"mount results share abfleet\","
        + "\"message\":\"the kernel has no virtiofs file system (CONFIG_VIRTIO_FS not built in, no module loaded)\"}");
    assertThat(GuestProtocol.parse(lines).setupErrors()).extracting(SetupError::describe).containsExactly(
        "mount results share abfleet: the kernel has no virtiofs file system (CONFIG_VIRTIO_FS not built in,"
            + " no module loaded)");
  }

  @Test
  void findsNoneOnTheConsoleOfABootThatRanTheHarness() throws Exception {
    assertThat(ConsoleSetupErrors.lines(console("console.txt"))).isEmpty();
  }

  @Test
  void findsTheEventBehindKernelMessagesOnTheSameLine() {
    String console = "[    7.1] virtio-fs: tag <abfleet> not foundabfleet: setup failed: "
        + "{\"event\":\"setup_error\",\"step\":\"s\",\"message\":\"m\"}\r\n[    7.4] reboot: Power down\r\n";

    assertThat(ConsoleSetupErrors.lines(console))
        .containsExactly("{\"event\":\"setup_error\",\"step\":\"s\",\"message\":\"m\"}");
  }

  @Test
  void ignoresTheMarkerWithoutASetupErrorEvent() {
    assertThat(ConsoleSetupErrors.lines("abfleet: setup failed: insmod 001-9p.ko: No such device\n")).isEmpty();
  }
}
