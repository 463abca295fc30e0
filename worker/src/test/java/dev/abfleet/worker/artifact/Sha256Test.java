package dev.abfleet.worker.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Sha256Test {

  @TempDir Path dir;

  @Test
  void keepsPartBoundariesInTheKey() {
    assertThat(Sha256.ofParts(Sha256.utf8("ab"), Sha256.utf8("c")))
        .isNotEqualTo(Sha256.ofParts(Sha256.utf8("a"), Sha256.utf8("bc")))
        .isEqualTo(Sha256.ofParts(Sha256.utf8("ab"), Sha256.utf8("c")))
        .hasSize(64);
  }

  @Test
  void copyReturnsTheHashOfWhatItCopied() throws Exception {
    Path source = Files.writeString(dir.resolve("src"), "abc");

    String hash = Sha256.copy(source, dir.resolve("dst"));

    // sha256("abc"), FIPS 180-2 example
    assertThat(hash).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(dir.resolve("dst")).hasContent("abc");
  }
}
