package dev.abfleet.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class RegularFilesTest {
  @TempDir Path dir;

  static Path fifo(Path at) throws Exception {
    Process p = new ProcessBuilder("mkfifo", at.toString()).inheritIO().start();
    assertThat(p.waitFor()).as("mkfifo " + at).isZero();
    return at;
  }

  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  void namesAFifoAndTheFix() throws Exception {
    Path pipe = fifo(dir.resolve("pipe"));

    assertThat(RegularFiles.special(pipe, "kernel image")).contains(pipe
        + " is a FIFO (named pipe), not a regular file; pass a regular kernel image");
  }

  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  void namesACharacterDevice() {
    assertThat(RegularFiles.special(Path.of("/dev/null"), "spec file")).get().asString()
        .startsWith("/dev/null is a character device, not a regular file");
  }

  @Test
  void leavesRegularFilesDirectoriesAndMissingPathsToTheCaller() throws Exception {
    Path file = Files.writeString(dir.resolve("f"), "x");

    assertThat(RegularFiles.special(file, "f")).isEmpty();
    assertThat(RegularFiles.special(dir, "f")).isEmpty();
    assertThat(RegularFiles.special(dir.resolve("nope"), "f")).isEmpty();
  }
}
