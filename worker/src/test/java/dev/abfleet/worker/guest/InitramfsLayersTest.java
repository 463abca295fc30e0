package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.guest.InitramfsBuilderTest.Read;
import dev.abfleet.worker.modules.GuestModule;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitramfsLayersTest {

  private static final List<GuestModule> MODULES = List.of(
      new GuestModule("virtio.ko", new byte[] {1}), new GuestModule("9pnet.ko", new byte[] {2}),
      new GuestModule("9p.ko", new byte[] {3}));

  @TempDir Path tmp;
  private Path cache;
  private Path base;

  @BeforeEach
  void baseImage() throws Exception {
    cache = tmp.resolve("cache");
    Path busybox = Files.write(tmp.resolve("busybox"), TestElf.staticX86());
    byte[] fb = TestElf.staticX86();
    fb[fb.length - 1] = 42;
    Path harness = Files.write(tmp.resolve("fleetbench"), fb);
    base = new InitramfsBuilder(cache).build("#!/bin/sh\n".getBytes(StandardCharsets.UTF_8), busybox, harness);
  }

  @Test
  void returnsTheBaseItselfWithNoModulesAndNoLayers() throws Exception {
    assertThat(InitramfsLayers.compose(cache, base, List.of(), List.of())).isEqualTo(base);
  }

  @Test
  void appendsTheModulesAsAGzipLayerNumberedInLoadOrder() throws Exception {
    byte[] composed = Files.readAllBytes(InitramfsLayers.compose(cache, base, MODULES, List.of()));

    byte[] baseBytes = Files.readAllBytes(base);
    assertThat(Arrays.copyOf(composed, baseBytes.length)).isEqualTo(baseBytes);
    Map<String, Read> layer = InitramfsBuilderTest.readBack(
        new ByteArrayInputStream(composed, baseBytes.length, composed.length - baseBytes.length));
    assertThat(layer.keySet()).containsExactly("lib", "lib/modules",
        "lib/modules/000-virtio.ko", "lib/modules/001-9pnet.ko", "lib/modules/002-9p.ko");
    assertThat(layer.get("lib/modules/002-9p.ko").data()).containsExactly(3);
    assertThat(layer.get("lib/modules/002-9p.ko").perm()).isEqualTo(0644);
  }

  @Test
  void appendsExtraLayersUnchangedAfterTheModules() throws Exception {
    Path workload = Files.write(tmp.resolve("workload.cpio.gz"), gzipLayer("workload/run.sh"));
    byte[] modulesOnly = Files.readAllBytes(InitramfsLayers.compose(cache, base, MODULES, List.of()));

    byte[] composed = Files.readAllBytes(InitramfsLayers.compose(cache, base, MODULES, List.of(workload)));

    byte[] layer = Files.readAllBytes(workload);
    assertThat(composed).hasSize(modulesOnly.length + layer.length);
    assertThat(Arrays.copyOf(composed, modulesOnly.length)).isEqualTo(modulesOnly);
    assertThat(Arrays.copyOfRange(composed, modulesOnly.length, composed.length)).isEqualTo(layer);
  }

  @Test
  void appendsAnExtraLayerToABaseWithoutModules() throws Exception {
    Path workload = Files.write(tmp.resolve("workload.cpio.gz"), gzipLayer("workload/run.sh"));

    Path composed = InitramfsLayers.compose(cache, base, List.of(), List.of(workload));

    assertThat(Files.size(composed)).isEqualTo(Files.size(base) + Files.size(workload));
  }

  @Test
  void reusesTheComposedImageForTheSameInputs() throws Exception {
    Path first = InitramfsLayers.compose(cache, base, MODULES, List.of());
    Files.setLastModifiedTime(first, FileTime.fromMillis(1_000_000));

    Path second = InitramfsLayers.compose(cache, base, List.copyOf(MODULES), List.of());

    assertThat(second).isEqualTo(first).hasParent(cache.resolve("guest").resolve("initramfs"));
    assertThat(Files.getLastModifiedTime(second).toMillis()).isEqualTo(1_000_000);
    try (var files = Files.list(first.getParent())) {
      assertThat(files.filter(f -> f.getFileName().toString().startsWith("."))).isEmpty();
    }
  }

  @Test
  void composesANewImageWhenAModuleChanges() throws Exception {
    Path first = InitramfsLayers.compose(cache, base, List.of(new GuestModule("9p.ko", new byte[] {1})), List.of());

    Path second = InitramfsLayers.compose(cache, base, List.of(new GuestModule("9p.ko", new byte[] {2})), List.of());

    assertThat(second).isNotEqualTo(first);
  }

  @Test
  void composesANewImageWhenALayerChanges() throws Exception {
    Path layer = Files.write(tmp.resolve("workload.cpio.gz"), gzipLayer("workload/a"));
    Path first = InitramfsLayers.compose(cache, base, List.of(), List.of(layer));
    Files.write(layer, gzipLayer("workload/b"));

    Path second = InitramfsLayers.compose(cache, base, List.of(), List.of(layer));

    assertThat(second).isNotEqualTo(first);
    assertThat(Files.readAllBytes(first)).isNotEqualTo(Files.readAllBytes(second));
  }

  @Test
  void rejectsALayerThatIsNotGzipCompressed() throws Exception {
    Path plain = Files.writeString(tmp.resolve("layer.cpio"), "070701...");

    assertThatThrownBy(() -> InitramfsLayers.compose(cache, base, List.of(), List.of(plain)))
        .isInstanceOf(GuestImageException.class)
        .hasMessageContaining(plain + " is not a gzip-compressed cpio archive");
  }

  /** A layer with one file, made by the builder's own writer. */
  private static byte[] gzipLayer(String name) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InitramfsBuilder.gzip(out, cpio -> InitramfsBuilder.writeModules(cpio,
        List.of(new GuestModule(name.replace('/', '_'), name.getBytes(StandardCharsets.UTF_8)))));
    return out.toByteArray();
  }
}
