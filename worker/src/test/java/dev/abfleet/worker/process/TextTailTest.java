package dev.abfleet.worker.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextTailTest {

  @TempDir
  Path dir;

  @Test
  void stripsTerminalEscapeCodes() {
    String console = "Booting from ROM..\u001B[?7l\u001B[2JFLEETBENCH start\r\n\u001B]0;title\u0007done\n";

    assertThat(TextTail.lastLines(console, 10)).isEqualTo("Booting from ROM..FLEETBENCH start\ndone");
  }

  @Test
  void keepsOnlyTheLastLines() throws Exception {
    Path f = dir.resolve("console.log");
    Files.writeString(f,
        IntStream.rangeClosed(1, 100).mapToObj(i -> "line " + i).collect(Collectors.joining("\n")) + "\n");

    String tail = TextTail.of(f, 3);

    assertThat(tail).isEqualTo("line 98\nline 99\nline 100");
  }

  @Test
  void missingFileGivesEmptyTail() {
    assertThat(TextTail.of(dir.resolve("absent.log"), 40)).isEmpty();
  }
}
