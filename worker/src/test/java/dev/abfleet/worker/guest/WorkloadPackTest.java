package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.artifact.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.cpio.CpioArchiveEntry;
import org.apache.commons.compress.archivers.cpio.CpioArchiveInputStream;
import org.apache.commons.compress.archivers.cpio.CpioConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadPackTest {
  @TempDir Path dir;
  @TempDir Path cache;

  @Test
  void packsFilesAndDirectoriesUnderWorkloadKeepingTheExecutableBit() throws Exception {
    Files.writeString(dir.resolve("run.sh"), "echo hi\n");
    Files.setPosixFilePermissions(dir.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-x---"));
    Files.createDirectories(dir.resolve("data/sub"));
    Files.writeString(dir.resolve("data/sub/input.txt"), "42");
    Files.setPosixFilePermissions(dir.resolve("data/sub/input.txt"), PosixFilePermissions.fromString("rw-------"));

    WorkloadPack.Packed p = WorkloadPack.pack(dir, cache);

    Map<String, CpioArchiveEntry> entries = entries(p.path());
    assertThat(entries.keySet()).containsExactly("workload", "workload/data", "workload/data/sub",
        "workload/data/sub/input.txt", "workload/run.sh");
    assertThat(entries.get("workload/run.sh").getMode()).isEqualTo(CpioConstants.C_ISREG | 0755);
    assertThat(entries.get("workload/data/sub/input.txt").getMode()).isEqualTo(CpioConstants.C_ISREG | 0644);
    assertThat(entries.get("workload/data").getMode()).isEqualTo(CpioConstants.C_ISDIR | 0755);
    for (CpioArchiveEntry e : entries.values()) {
      assertThat(e.getUID()).as(e.getName()).isZero();
      assertThat(e.getGID()).as(e.getName()).isZero();
      assertThat(e.getTime()).as(e.getName()).isZero();
    }
    assertThat(contents(p.path(), "workload/data/sub/input.txt")).isEqualTo("42");
  }

  @Test
  void theSameDirectoryGivesTheSameSha256WhateverTheMtimesAndIsCachedUnderIt() throws Exception {
    Files.writeString(dir.resolve("b.txt"), "b");
    Files.writeString(dir.resolve("a.txt"), "a");
    WorkloadPack.Packed first = WorkloadPack.pack(dir, cache);
    Files.setLastModifiedTime(dir.resolve("a.txt"), FileTime.fromMillis(123_456_000L));

    WorkloadPack.Packed second = WorkloadPack.pack(dir, cache);

    assertThat(second).isEqualTo(first);
    assertThat(first.path()).isEqualTo(cache.resolve("guest/workloads/" + first.sha256() + ".cpio.gz"));
    assertThat(Sha256.ofFile(first.path())).isEqualTo(first.sha256());
    assertThat(first.bytes()).isEqualTo(Files.size(first.path()));
    try (var listing = Files.list(cache.resolve("guest/workloads"))) {
      assertThat(listing.toList()).as("no temp file left").hasSize(1);
    }
  }

  @Test
  void changedContentGivesAnotherSha256() throws Exception {
    Files.writeString(dir.resolve("a.txt"), "a");
    String before = WorkloadPack.pack(dir, cache).sha256();
    Files.writeString(dir.resolve("a.txt"), "A");

    assertThat(WorkloadPack.pack(dir, cache).sha256()).isNotEqualTo(before);
  }

  @Test
  void keepsARelativeSymlinkThatStaysInsideTheDirectory() throws Exception {
    Files.createDirectories(dir.resolve("bin"));
    Files.writeString(dir.resolve("bin/tool"), "x");
    Files.createSymbolicLink(dir.resolve("tool"), Path.of("bin/tool"));

    WorkloadPack.Packed p = WorkloadPack.pack(dir, cache);

    CpioArchiveEntry link = entries(p.path()).get("workload/tool");
    assertThat(link.getMode()).isEqualTo(CpioConstants.C_ISLNK | 0777);
    assertThat(contents(p.path(), "workload/tool")).isEqualTo("bin/tool");
  }

  @Test
  void refusesASymlinkOutOfTheDirectory() throws Exception {
    Files.createSymbolicLink(dir.resolve("passwd"), Path.of("../../etc/passwd"));

    assertThatThrownBy(() -> WorkloadPack.pack(dir, cache))
        .isInstanceOf(WorkloadPackException.class)
        .hasMessageContaining("passwd -> ../../etc/passwd").hasMessageContaining("points out of")
        .hasMessageContaining("make it a relative link inside the directory");
  }

  @Test
  void refusesAnAbsoluteSymlinkEvenToAFileInside() throws Exception {
    Files.writeString(dir.resolve("a.txt"), "a");
    Files.createSymbolicLink(dir.resolve("abs"), dir.resolve("a.txt").toAbsolutePath());

    assertThatThrownBy(() -> WorkloadPack.pack(dir, cache))
        .isInstanceOf(WorkloadPackException.class).hasMessageContaining("points to an absolute path");
  }

  @Test
  void refusesASymlinkThatLeavesTheDirectoryThroughAnotherLink() throws Exception {
    Files.createDirectories(dir.resolve("x"));
    Files.createSymbolicLink(dir.resolve("x/up"), Path.of(".."));
    // Its text stays inside (x/up/../.. = .), but x/up is the directory itself: it leads to its parent.
    Files.createSymbolicLink(dir.resolve("escape"), Path.of("x/up/.."));

    assertThatThrownBy(() -> WorkloadPack.pack(dir, cache))
        .isInstanceOf(WorkloadPackException.class).hasMessageContaining("escape -> x/up/..");
  }

  @Test
  void refusesAFifo() throws Exception {
    Process p = new ProcessBuilder("mkfifo", dir.resolve("pipe").toString()).start();
    assertThat(p.waitFor()).isZero();

    assertThatThrownBy(() -> WorkloadPack.pack(dir, cache))
        .isInstanceOf(WorkloadPackException.class)
        .hasMessageContaining("pipe is not a regular file, directory or symlink");
  }

  @Test
  void refusesTheReservedSettingsName() throws Exception {
    Files.createDirectories(dir.resolve(".abfleet"));

    assertThatThrownBy(() -> WorkloadPack.pack(dir, cache))
        .isInstanceOf(WorkloadPackException.class).hasMessageContaining(".abfleet").hasMessageContaining("reserved");
  }

  @Test
  void refusesAWorkloadOverTheCapNamingItsSizeAndTheCap() throws Exception {
    Files.write(dir.resolve("big.bin"), new byte[3 << 20]);

    assertThatThrownBy(() -> WorkloadPack.pack(dir, cache, 2L << 20))
        .isInstanceOf(WorkloadPackException.class)
        .hasMessageContaining("3.0 MiB (3145728 bytes)").hasMessageContaining("cap of 2 MiB");
    assertThat(cache.resolve("guest/workloads")).doesNotExist();
  }

  @Test
  void refusesAFileInsteadOfADirectory() throws Exception {
    Path file = Files.writeString(dir.resolve("run.sh"), "x");

    assertThatThrownBy(() -> WorkloadPack.pack(file, cache))
        .isInstanceOf(WorkloadPackException.class).hasMessageContaining("is not a directory");
  }

  static Map<String, CpioArchiveEntry> entries(Path archive) throws IOException {
    Map<String, CpioArchiveEntry> out = new LinkedHashMap<>();
    try (CpioArchiveInputStream in = cpio(archive)) {
      CpioArchiveEntry e;
      while ((e = in.getNextCPIOEntry()) != null) {
        out.put(e.getName(), e);
      }
    }
    return out;
  }

  static String contents(Path archive, String name) throws IOException {
    try (CpioArchiveInputStream in = cpio(archive)) {
      CpioArchiveEntry e;
      while ((e = in.getNextCPIOEntry()) != null) {
        if (e.getName().equals(name)) {
          return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
      }
    }
    throw new AssertionError(name + " not in " + archive);
  }

  private static CpioArchiveInputStream cpio(Path archive) throws IOException {
    return new CpioArchiveInputStream(new GZIPInputStream(Files.newInputStream(archive)));
  }
}
