package dev.abfleet.controller.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtifactStoreTest {
  @TempDir Path dir;

  @Test
  void evictsTheLeastRecentlyUsedArtifactsToMakeRoom() throws Exception {
    ArtifactStore store = new ArtifactStore(new ArtifactStoreSettings(dir, 30));
    String a = put(store, "a", 10);
    String b = put(store, "b", 10);
    String c = put(store, "c", 10);
    store.status(a); // a is now more recent than b

    String d = put(store, "d", 10);

    assertThat(store.status(b).complete()).isFalse();
    assertThat(store.status(a).complete()).isTrue();
    assertThat(store.status(c).complete()).isTrue();
    assertThat(store.status(d).complete()).isTrue();
    assertThat(store.usedBytes()).isEqualTo(30);
    assertThat(Files.exists(dir.resolve("sha256").resolve(b))).isFalse();
  }

  @Test
  void refusesAnUploadPastThePerUploadCapAndRemovesItsPartialPrefix() throws Exception {
    byte[] data = "0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    String sha = sha("0123456789abcdef");
    ArtifactStore roomy = new ArtifactStore(new ArtifactStoreSettings(dir, 100, 100));
    ArtifactStore.Upload first = roomy.beginUpload(sha, data.length);
    first.append(0, ByteString.copyFrom(data, 0, 8));
    first.close();
    assertThat(Files.exists(dir.resolve("partial").resolve(sha))).isTrue();

    // Restarted with a smaller cap on one upload: the resumed upload is refused and its prefix gone.
    ArtifactStore capped = new ArtifactStore(new ArtifactStoreSettings(dir, 100, 10));
    assertThatThrownBy(() -> capped.beginUpload(sha, data.length))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NO_ROOM))
        .hasMessageContaining("16 bytes").hasMessageContaining("cap of 10 bytes")
        .hasMessageContaining("controller.artifacts.max_upload_bytes");
    assertThat(Files.exists(dir.resolve("partial").resolve(sha))).isFalse();
    assertThat(capped.usedBytes()).isZero();
  }

  @Test
  void neverEvictsAnArtifactBeingRead() throws Exception {
    ArtifactStore store = new ArtifactStore(new ArtifactStoreSettings(dir, 20));
    String a = put(store, "a", 10);
    String b = put(store, "b", 10);

    try (ArtifactStore.Read read = store.open(a)) {
      put(store, "c", 10);
      assertThat(store.status(a).complete()).isTrue();
      assertThat(store.status(b).complete()).isFalse();
      assertThat(read.read(0, 100).toString(StandardCharsets.UTF_8)).isEqualTo(content("a", 10));
    }
  }

  @Test
  void refusesAnArtifactLargerThanTheCapNamingTheSetting() {
    ArtifactStore store = new ArtifactStore(new ArtifactStoreSettings(dir, 20));

    assertThatThrownBy(() -> store.beginUpload(sha(content("x", 21)), 21))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NO_ROOM))
        .hasMessageContaining("larger than the controller's artifact store cap of 20 bytes")
        .hasMessageContaining("controller.artifacts.max_bytes");
  }

  @Test
  void refusesAnUploadWhenEverythingHeldIsInUse() throws Exception {
    ArtifactStore store = new ArtifactStore(new ArtifactStoreSettings(dir, 20));
    String a = put(store, "a", 10);
    try (ArtifactStore.Read read = store.open(a);
        ArtifactStore.Upload writing = store.beginUpload(sha(content("b", 10)), 10)) {
      assertThatThrownBy(() -> store.beginUpload(sha(content("c", 10)), 10))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NO_ROOM))
          .hasMessageContaining("being read or written");
    }
  }

  @Test
  void remembersWhatItHeldAcrossARestart() throws Exception {
    ArtifactStore first = new ArtifactStore(new ArtifactStoreSettings(dir, 100));
    String a = put(first, "a", 10);
    String b = sha(content("b", 10));
    try (ArtifactStore.Upload u = first.beginUpload(b, 10)) {
      u.append(0, ByteString.copyFromUtf8(content("b", 10).substring(0, 4)));
    }

    ArtifactStore second = new ArtifactStore(new ArtifactStoreSettings(dir, 100));

    assertThat(second.status(a)).isEqualTo(new ArtifactStore.Status(true, 10, 100));
    assertThat(second.status(b)).isEqualTo(new ArtifactStore.Status(false, 4, 100));
  }

  @Test
  void servesWhatAnotherNodeSharingTheDirectoryStored() throws Exception {
    ArtifactStore nodeA = new ArtifactStore(new ArtifactStoreSettings(dir, 100));
    ArtifactStore nodeB = new ArtifactStore(new ArtifactStoreSettings(dir, 100));

    String a = put(nodeA, "a", 10);

    assertThat(nodeB.status(a)).isEqualTo(new ArtifactStore.Status(true, 10, 100));
    try (ArtifactStore.Read read = nodeB.open(a)) {
      assertThat(read.read(0, 100).toString(StandardCharsets.UTF_8)).isEqualTo(content("a", 10));
    }
  }

  @Test
  void rejectsAChunkThatDoesNotContinueThePrefix() throws Exception {
    ArtifactStore store = new ArtifactStore(new ArtifactStoreSettings(dir, 100));
    try (ArtifactStore.Upload u = store.beginUpload(sha(content("a", 10)), 10)) {
      assertThatThrownBy(() -> u.append(4, ByteString.copyFromUtf8("aaaa")))
          .hasMessageContaining("send from offset 0");
    }
  }

  private static String put(ArtifactStore store, String fill, int n) throws Exception {
    String text = content(fill, n);
    String sha = sha(text);
    try (ArtifactStore.Upload u = store.beginUpload(sha, n)) {
      u.append(0, ByteString.copyFromUtf8(text));
      u.finish();
    }
    return sha;
  }

  private static String content(String fill, int n) {
    return fill.repeat(n);
  }

  private static String sha(String text) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
