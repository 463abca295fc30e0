package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.cpio.CpioArchiveEntry;
import org.apache.commons.compress.archivers.cpio.CpioArchiveInputStream;
import org.apache.commons.compress.archivers.cpio.CpioConstants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitramfsBuilderTest {

  private static final byte[] INIT = "#!/bin/sh\npoweroff -f\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path tmp;
  private Path busybox;
  private Path harness;

  @BeforeEach
  void inputs() throws IOException {
    busybox = Files.write(tmp.resolve("busybox"), TestElf.staticX86());
    byte[] fb = TestElf.staticX86();
    fb[fb.length - 1] = 42; // differs from busybox, still a static x86_64 ELF
    harness = Files.write(tmp.resolve("fleetbench"), fb);
  }

  /** A read-back archive entry and its data. */
  record Read(CpioArchiveEntry entry, byte[] data) {
    long type() {
      return entry.getMode() & CpioConstants.S_IFMT;
    }

    long perm() {
      return entry.getMode() & 07777;
    }
  }

  static Map<String, Read> readBack(Path archive) throws IOException {
    return readBack(Files.newInputStream(archive));
  }

  /** The entries of the first gzip-compressed archive in {@code compressed}. */
  static Map<String, Read> readBack(InputStream compressed) throws IOException {
    Map<String, Read> entries = new LinkedHashMap<>();
    try (InputStream in = new GZIPInputStream(compressed);
        CpioArchiveInputStream cpio = new CpioArchiveInputStream(in)) {
      CpioArchiveEntry e;
      while ((e = cpio.getNextEntry()) != null) {
        entries.put(e.getName(), new Read(e, cpio.readAllBytes()));
      }
    }
    return entries;
  }

  private Path build() throws GuestImageException {
    return new InitramfsBuilder(tmp.resolve("cache")).build(INIT, busybox, harness);
  }

  @Test
  void holdsAnExecutableInitAndTheTwoBinaries() throws Exception {
    Map<String, Read> entries = readBack(build());

    assertThat(entries.get("init").data()).isEqualTo(INIT);
    assertThat(entries.get("init").perm()).isEqualTo(0755);
    assertThat(entries.get("bin/busybox").data()).isEqualTo(Files.readAllBytes(busybox));
    assertThat(entries.get("bin/fleetbench").data()).isEqualTo(Files.readAllBytes(harness));
    assertThat(entries.get("bin/fleetbench").type()).isEqualTo(CpioConstants.C_ISREG);
    assertThat(entries.get("bin/fleetbench").perm()).isEqualTo(0755);
  }

  @Test
  void holdsTheMountPointsAsDirectoriesBeforeTheirContents() throws Exception {
    Map<String, Read> entries = readBack(build());

    for (String dir : new String[] {"bin", "dev", "proc", "sys", "bench", "tmp"}) {
      assertThat(entries.get(dir).type()).as(dir).isEqualTo(CpioConstants.C_ISDIR);
    }
    assertThat(entries.keySet()).containsSubsequence("bin", "bin/busybox");
    assertThat(entries.keySet()).containsSubsequence("dev", "dev/console");
  }

  @Test
  void linksEveryAppletTheInitUsesToBusybox() throws Exception {
    Map<String, Read> entries = readBack(build());

    for (String applet : new String[] {"sh", "mount", "cat", "poweroff", "sync"}) {
      Read link = entries.get("bin/" + applet);
      assertThat(link.type()).as(applet).isEqualTo(CpioConstants.C_ISLNK);
      assertThat(new String(link.data(), StandardCharsets.UTF_8)).isEqualTo("busybox");
    }
  }

  @Test
  void providesDevConsoleAsCharacterDevice5Comma1() throws Exception {
    Read console = readBack(build()).get("dev/console");

    assertThat(console.type()).isEqualTo(CpioConstants.C_ISCHR);
    assertThat(console.entry().getRemoteDeviceMaj()).isEqualTo(5);
    assertThat(console.entry().getRemoteDeviceMin()).isEqualTo(1);
  }

  @Test
  void reusesTheCachedArchiveForTheSameInputs() throws Exception {
    Path first = build();
    long written = Files.getLastModifiedTime(first).toMillis();
    Files.setLastModifiedTime(first, java.nio.file.attribute.FileTime.fromMillis(written - 60_000));

    Path second = build();

    assertThat(second).isEqualTo(first);
    assertThat(Files.getLastModifiedTime(second).toMillis()).isEqualTo(written - 60_000);
    try (var files = Files.list(first.getParent())) {
      assertThat(files).containsExactly(first); // no temp files left behind
    }
  }

  @Test
  void buildsANewArchiveWhenTheHarnessChanges() throws Exception {
    Path first = build();
    byte[] fb = Files.readAllBytes(harness);
    fb[fb.length - 1] = 43;
    Files.write(harness, fb);

    assertThat(build()).isNotEqualTo(first);
  }

  @Test
  void writesAnArchiveTheVmProcessCanReadAsAnotherUser() throws Exception {
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(build())))
        .isEqualTo("rw-r--r--");
  }

  @Test
  void rejectsADynamicBusyboxWithTheInstallHint() throws Exception {
    Files.write(busybox, TestElf.of(ElfInfo.X86_64, true));

    assertThatThrownBy(this::build)
        .isInstanceOf(GuestImageException.class)
        .hasMessageContaining("dynamically linked")
        .hasMessageContaining("install busybox-static");
  }

  @Test
  void rejectsAMissingBusyboxWithTheInstallHint() throws Exception {
    Files.delete(busybox);

    assertThatThrownBy(this::build)
        .isInstanceOf(GuestImageException.class)
        .hasMessageContaining("not found: install busybox-static");
  }

  @Test
  void rejectsBinariesOfDifferentCpus() throws Exception {
    Files.write(busybox, TestElf.of(ElfInfo.AARCH64, false));

    assertThatThrownBy(this::build)
        .isInstanceOf(GuestImageException.class)
        .hasMessageContaining("is aarch64 but")
        .hasMessageContaining("is x86_64");
  }

  @Test
  void writesNoModulesDirectoryIntoTheBaseImage() throws Exception {
    assertThat(readBack(build()).keySet()).noneMatch(n -> n.startsWith("lib"));
  }

  @Test
  void writesTheSameBytesForTheSameInputsInAnotherCache() throws Exception {
    Path other = new InitramfsBuilder(tmp.resolve("other-cache")).build(INIT, busybox, harness);

    assertThat(Files.readAllBytes(other)).isEqualTo(Files.readAllBytes(build()));
  }
}
