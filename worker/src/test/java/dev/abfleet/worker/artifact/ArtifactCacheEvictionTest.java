package dev.abfleet.worker.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker cache's cap: LRU eviction by bytes, never what the current boot staged; controller fetches. */
class ArtifactCacheEvictionTest {
  @TempDir Path dir;

  @Test
  void evictsTheLeastRecentlyStagedArtifactOfEarlierBoots() throws Exception {
    ArtifactCache cache = new ArtifactCache(dir.resolve("cache"), 20, null);
    Path a = stage(cache, "a");
    Path b = stage(cache, "b");
    cache.beginRun();
    stage(cache, "a");
    cache.beginRun();

    stage(cache, "c");

    assertThat(b).doesNotExist();
    assertThat(a).exists();
  }

  @Test
  void neverEvictsWhatTheCurrentBootStaged() throws Exception {
    ArtifactCache cache = new ArtifactCache(dir.resolve("cache"), 20, null);
    stage(cache, "a");
    stage(cache, "b");

    assertThatThrownBy(() -> stage(cache, "c"))
        .hasMessageContaining("cannot fit").hasMessageContaining("--artifact-cache-max-bytes");
  }

  @Test
  void refusesAnArtifactLargerThanTheCap() throws Exception {
    ArtifactCache cache = new ArtifactCache(dir.resolve("cache"), 5, null);

    assertThatThrownBy(() -> stage(cache, "a"))
        .hasMessageContaining("larger than this worker's artifact cache cap of 5 bytes")
        .hasMessageContaining("--artifact-cache-max-bytes");
  }

  @Test
  void fetchesAControllerUriAndChecksItsHash() throws Exception {
    Path src = Files.writeString(dir.resolve("k"), "kernel");
    String sha = ArtifactCache.sha256(src);
    ArtifactCache good = new ArtifactCache(dir.resolve("good"), 100, (hex, partial) -> Files.copy(src, partial));
    ArtifactCache bad = new ArtifactCache(dir.resolve("bad"), 100, (hex, partial) -> Files.writeString(partial, "evil"));

    assertThat(good.stage(sha, ArtifactUri.of(sha))).hasContent("kernel");
    assertThatThrownBy(() -> bad.stage(sha, ArtifactUri.of(sha))).isInstanceOf(HashMismatchException.class);
    assertThat(bad.lookup(sha)).isEmpty();
  }

  @Test
  void refusesAControllerUriWithoutAControllerConnection() throws Exception {
    String sha = "a".repeat(64);

    assertThatThrownBy(() -> new ArtifactCache(dir).stage(sha, ArtifactUri.of(sha)))
        .hasMessageContaining("no controller connection");
  }

  /** Stages a 10-byte file of {@code c}. */
  private Path stage(ArtifactCache cache, String c) throws Exception {
    Path src = Files.writeString(dir.resolve("src-" + c), c.repeat(10));
    return cache.stage(ArtifactCache.sha256(src), src.toString());
  }
}
