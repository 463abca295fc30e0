package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.artifact.Sha256;
import dev.abfleet.worker.modules.GuestModule;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Guest images with the host's real tools: gcc, aarch64-linux-gnu-gcc and busybox-static's /bin/busybox. */
class GuestImageTest {

  @TempDir Path tmp;

  @Test
  void packsTheInitFromTheGuestJarAndAStaticHarness() throws Exception {
    GuestImage.Built image = GuestImage.base(tmp, "x86_64", GuestToolchain.host());

    Map<String, InitramfsBuilderTest.Read> files = InitramfsBuilderTest.readBack(image.path());
    assertThat(new String(files.get("init").data(), StandardCharsets.UTF_8))
        .startsWith("#!/bin/sh").contains("/bin/fleetbench").contains("poweroff -f");
    assertThat(ElfInfo.read(files.get("bin/fleetbench").data())).contains(new ElfInfo(ElfInfo.X86_64, true));
    assertThat(files.get("bin/busybox").data()).isEqualTo(Files.readAllBytes(Path.of("/bin/busybox")));
    assertThat(files.keySet()).noneMatch(n -> n.startsWith("lib/modules"));
    assertThat(image.arch()).isEqualTo("x86_64");
    assertThat(image.sha256()).isEqualTo(Sha256.ofFile(image.path()));
  }

  @Test
  void servesTheSameImageForTheSameInputsWithoutBuildingAgain() throws Exception {
    GuestImage.Built first = GuestImage.base(tmp, "x86_64", GuestToolchain.host());
    Files.setLastModifiedTime(first.path(), FileTime.fromMillis(1_000_000));

    GuestImage.Built second = GuestImage.base(tmp, "x86_64", GuestToolchain.host());

    assertThat(second).isEqualTo(first);
    assertThat(Files.getLastModifiedTime(second.path()).toMillis()).isEqualTo(1_000_000);
  }

  @Test
  void buildsByteIdenticalImagesInTwoCaches() throws Exception {
    GuestImage.Built here = GuestImage.base(tmp.resolve("a"), "x86_64", GuestToolchain.host());

    GuestImage.Built there = GuestImage.base(tmp.resolve("b"), "x86_64", GuestToolchain.host());

    assertThat(there.sha256()).isEqualTo(here.sha256());
  }

  @Test
  void buildsANewImageWhenTheBusyboxChanges() throws Exception {
    Path busybox = Files.copy(Path.of("/bin/busybox"), tmp.resolve("busybox"));
    GuestImage.Built first = GuestImage.base(tmp, "x86_64", new GuestToolchain("gcc", busybox));
    byte[] changed = Files.readAllBytes(busybox);
    changed[changed.length - 1] ^= 1;
    Files.write(busybox, changed);

    GuestImage.Built second = GuestImage.base(tmp, "x86_64", new GuestToolchain("gcc", busybox));

    assertThat(second.sha256()).isNotEqualTo(first.sha256());
    assertThat(second.path()).isNotEqualTo(first.path());
    assertThat(first.path()).exists();
  }

  @Test
  void buildsAnArm64ImageWithTheCrossCompiler() throws Exception {
    Path busybox = Files.write(tmp.resolve("busybox-arm64"), TestElf.of(ElfInfo.AARCH64, false));

    GuestImage.Built image = GuestImage.base(tmp, "aarch64", new GuestToolchain(HarnessBuild.ARM64_COMPILER, busybox));

    assertThat(image.arch()).isEqualTo("aarch64");
    assertThat(ElfInfo.read(InitramfsBuilderTest.readBack(image.path()).get("bin/fleetbench").data()))
        .contains(new ElfInfo(ElfInfo.AARCH64, true));
    assertThat(GuestImage.archOf(image.path())).contains("aarch64");
  }

  @Test
  void rejectsABusyboxOfAnotherArchitectureNamingThePackage() throws Exception {
    Path busybox = Files.write(tmp.resolve("busybox"), TestElf.of(ElfInfo.AARCH64, false));

    assertThatThrownBy(() -> GuestImage.base(tmp, "x86_64", new GuestToolchain("gcc", busybox)))
        .isInstanceOf(GuestImageException.class)
        .hasMessage("busybox " + busybox + " is aarch64, not x86_64: use busybox-static:amd64");
  }

  @Test
  void rejectsAHarnessCompiledForAnotherArchitectureNamingTheCrossCompiler() throws Exception {
    Path busybox = Files.write(tmp.resolve("busybox"), TestElf.of(ElfInfo.AARCH64, false));

    assertThatThrownBy(() -> GuestImage.base(tmp, "aarch64", new GuestToolchain("gcc", busybox)))
        .isInstanceOf(GuestImageException.class)
        .hasMessageContaining("fleetbench built by gcc")
        .hasMessageEndingWith("is x86_64, not aarch64: compile with a compiler that targets aarch64"
            + " (aarch64-linux-gnu-gcc)");
  }

  @Test
  void rejectsAnUnknownArchitecture() {
    assertThatThrownBy(() -> GuestImage.base(tmp, "riscv64", GuestToolchain.host()))
        .isInstanceOf(GuestImageException.class)
        .hasMessage("unknown guest arch 'riscv64'; expected x86_64 or aarch64");
  }

  @Test
  void readsTheArchitectureOfAnX86Image() throws Exception {
    Path image = new InitramfsBuilder(tmp).build(new byte[0], elf("bb", ElfInfo.X86_64), elf("fb", ElfInfo.X86_64));

    assertThat(GuestImage.archOf(image)).contains("x86_64");
  }

  @Test
  void readsTheArchitectureOfAnArm64ImageWithLayersAfterIt() throws Exception {
    Path image = new InitramfsBuilder(tmp).build(new byte[0], elf("bb", ElfInfo.AARCH64), elf("fb", ElfInfo.AARCH64));
    Path layered = InitramfsLayers.compose(tmp, image, List.of(new GuestModule("9p.ko", new byte[] {1})), List.of());

    assertThat(GuestImage.archOf(layered)).contains("aarch64");
  }

  @Test
  void knowsNoArchitectureForACorruptImage() throws Exception {
    Path image = new InitramfsBuilder(tmp).build(new byte[0], elf("bb", ElfInfo.X86_64), elf("fb", ElfInfo.X86_64));
    byte[] bytes = Files.readAllBytes(image);
    Path truncated = Files.write(tmp.resolve("truncated.cpio.gz"), Arrays.copyOf(bytes, 40));
    byte[] flipped = bytes.clone();
    for (int i = 20; i < flipped.length - 8; i++) {
      flipped[i] ^= 0x5a;
    }
    Path garbled = Files.write(tmp.resolve("garbled.cpio.gz"), flipped);

    assertThat(GuestImage.archOf(truncated)).isEmpty();
    assertThat(GuestImage.archOf(garbled)).isEmpty();
    assertThat(GuestImage.archOf(Files.writeString(tmp.resolve("text"), "not an image"))).isEmpty();
    assertThat(GuestImage.archOf(tmp.resolve("missing"))).isEmpty();
  }

  @Test
  void knowsNoArchitectureForAnArchiveWithoutBusybox() throws Exception {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(gz)) {
      InitramfsBuilder.writeModules(out, List.of());
    }

    assertThat(GuestImage.archOf(Files.write(tmp.resolve("layer.cpio.gz"), gz.toByteArray()))).isEmpty();
  }

  private Path elf(String name, int machine) throws Exception {
    byte[] b = TestElf.of(machine, false);
    b[b.length - 1] = (byte) name.hashCode();
    return Files.write(tmp.resolve(name), b);
  }
}
