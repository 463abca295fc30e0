package dev.abfleet.worker.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtifactCacheTest {

  // sha256("abc"), FIPS 180-2 example
  private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

  @TempDir
  Path dir;

  private Path source(String content) throws Exception {
    return Files.writeString(dir.resolve("src-" + content.length()), content);
  }

  @Test
  void hashesLikeTheStandardExample() throws Exception {
    assertThat(ArtifactCache.sha256(source("abc"))).isEqualTo(ABC);
  }

  @Test
  void stagesLocalPathUnderItsHash() throws Exception {
    Path staged = new ArtifactCache(dir.resolve("cache")).stage(ABC, source("abc").toString());

    assertThat(staged).isEqualTo(dir.resolve("cache/sha256/" + ABC)).hasContent("abc");
  }

  @Test
  void stagesFileUri() throws Exception {
    Path staged = new ArtifactCache(dir.resolve("cache")).stage(ABC, source("abc").toUri().toString());

    assertThat(staged).hasContent("abc");
  }

  @Test
  void returnsCachedCopyWithoutCopyingAgain() throws Exception {
    ArtifactCache cache = new ArtifactCache(dir.resolve("cache"));
    Path staged = cache.stage(ABC, source("abc").toString());
    Files.setLastModifiedTime(staged, FileTime.fromMillis(0));

    Path again = cache.stage(ABC, source("abc").toString());

    assertThat(again).isEqualTo(staged);
    assertThat(Files.getLastModifiedTime(again).toMillis()).isZero();
  }

  @Test
  void restagesCachedCopyWhoseSizeChanged() throws Exception {
    ArtifactCache cache = new ArtifactCache(dir.resolve("cache"));
    Path staged = cache.stage(ABC, source("abc").toString());
    Files.writeString(staged, "ab");

    assertThat(cache.stage(ABC, source("abc").toString())).hasContent("abc");
  }

  @Test
  void rejectsWrongHashNamingBothAndCachesNothing() throws Exception {
    ArtifactCache cache = new ArtifactCache(dir.resolve("cache"));
    String wrong = "0".repeat(64);

    assertThatThrownBy(() -> cache.stage(wrong, source("abc").toString()))
        .isInstanceOf(HashMismatchException.class)
        .hasMessageContaining(wrong).hasMessageContaining(ABC);
    assertThat(dir.resolve("cache/sha256")).isEmptyDirectory();
  }

  @Test
  void rejectsRemoteScheme() {
    assertThatThrownBy(() -> new ArtifactCache(dir).stage(ABC, "https://example.org/vmlinuz"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'https'");
  }

  @Test
  void rejectsAPathThatClimbsOutWithDotDot() throws Exception {
    Path src = source("abc");
    String climbing = dir.resolve("cache").resolve("..").resolve(src.getFileName()).toString();

    assertThatThrownBy(() -> new ArtifactCache(dir.resolve("cache")).stage(ABC, climbing))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contains '..'");
    assertThat(dir.resolve("cache/sha256/" + ABC)).doesNotExist();
  }

  @Test
  void rejectsMalformedHash() {
    assertThatThrownBy(() -> new ArtifactCache(dir).stage("abc123", "/x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'abc123'");
  }
}
