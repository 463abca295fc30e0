package dev.abfleet.worker.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleLogsTest {
  @TempDir Path dir;

  @Test
  void keepsTheLastBytesOfALongLogAndSaysHowMuchWasCut() throws Exception {
    Path log = Files.writeString(dir.resolve("console.log"), "0123456789abcdefghij");

    Path capped = ConsoleLogs.capped(log, dir.resolve("out"), 6);

    assertThat(Files.readString(capped)).isEqualTo(
        "[abfleet: console log truncated: the first 14 of 20 bytes are omitted, the last 6 follow]\nefghij");
  }

  @Test
  void copiesAShortLogUnchanged() throws Exception {
    Path log = Files.writeString(dir.resolve("console.log"), "Linux version 6.1\n");

    assertThat(Files.readString(ConsoleLogs.capped(log, dir.resolve("out"), 100))).isEqualTo("Linux version 6.1\n");
  }
}
