package dev.abfleet.worker.vm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.compress.archivers.cpio.CpioArchiveEntry;
import org.apache.commons.compress.archivers.cpio.CpioArchiveOutputStream;
import org.apache.commons.compress.archivers.cpio.CpioConstants;

/** Throwaway busybox initramfs images for end-to-end boots. */
public final class TestGuests {

  private TestGuests() {}

  /**
   * An uncompressed newc initramfs whose /init is {@code initScript} run by the host's static
   * busybox (package busybox-static), written in Java (no cpio tool needed).
   */
  public static Path busyboxInitramfs(Path dir, String initScript) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path out = dir.resolve("initrd.cpio");
    try (OutputStream file = Files.newOutputStream(out);
        CpioArchiveOutputStream cpio = new CpioArchiveOutputStream(file, CpioConstants.FORMAT_NEW)) {
      entry(cpio, ".", CpioConstants.C_ISDIR | 0755, new byte[0]);
      entry(cpio, "bin", CpioConstants.C_ISDIR | 0755, new byte[0]);
      entry(cpio, "dev", CpioConstants.C_ISDIR | 0755, new byte[0]);
      entry(cpio, "bin/busybox", CpioConstants.C_ISREG | 0755, Files.readAllBytes(Path.of("/bin/busybox")));
      entry(cpio, "init", CpioConstants.C_ISREG | 0755,
          ("#!/bin/busybox sh\n" + initScript).getBytes(StandardCharsets.UTF_8));
      cpio.finish();
    }
    return out;
  }

  private static void entry(CpioArchiveOutputStream cpio, String name, long mode, byte[] data) throws IOException {
    CpioArchiveEntry e = new CpioArchiveEntry(CpioConstants.FORMAT_NEW, name, data.length);
    e.setMode(mode);
    e.setNumberOfLinks((mode & CpioConstants.C_ISDIR) != 0 ? 2 : 1);
    cpio.putArchiveEntry(e);
    cpio.write(data);
    cpio.closeArchiveEntry();
  }
}
