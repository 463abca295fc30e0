package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.cpio.CpioArchiveEntry;
import org.apache.commons.compress.archivers.cpio.CpioArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade with the host's real tools: gcc and busybox-static's /bin/busybox. */
class GuestImageTest {

  @TempDir Path cache;

  @Test
  void packsTheInitFromTheGuestJarAndAStaticHarness() throws Exception {
    Path initramfs = GuestImage.ensure(cache);

    Map<String, byte[]> files = new HashMap<>();
    try (InputStream in = new GZIPInputStream(Files.newInputStream(initramfs));
        CpioArchiveInputStream cpio = new CpioArchiveInputStream(in)) {
      CpioArchiveEntry e;
      while ((e = cpio.getNextEntry()) != null) {
        files.put(e.getName(), cpio.readAllBytes());
      }
    }
    assertThat(new String(files.get("init"), StandardCharsets.UTF_8))
        .startsWith("#!/bin/sh").contains("/bin/fleetbench").contains("poweroff -f");
    assertThat(ElfInfo.read(files.get("bin/fleetbench"))).contains(new ElfInfo(ElfInfo.X86_64, true));
    assertThat(files.get("bin/busybox")).isEqualTo(Files.readAllBytes(Path.of("/bin/busybox")));
  }
}
