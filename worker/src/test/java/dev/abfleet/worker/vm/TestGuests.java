package dev.abfleet.worker.vm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/** Throwaway busybox initramfs images for end-to-end boots. */
public final class TestGuests {

  private TestGuests() {}

  /**
   * An uncompressed newc initramfs whose /init is {@code initScript} run by the host's static
   * busybox (package busybox-static), assembled with the cpio tool.
   */
  public static Path busyboxInitramfs(Path dir, String initScript) throws IOException, InterruptedException {
    Path root = Files.createDirectories(dir.resolve("initramfs"));
    Files.createDirectories(root.resolve("bin"));
    Files.createDirectories(root.resolve("dev"));
    Files.copy(Path.of("/bin/busybox"), root.resolve("bin/busybox"));
    Path init = Files.writeString(root.resolve("init"), "#!/bin/busybox sh\n" + initScript);
    Files.setPosixFilePermissions(init, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path list = Files.write(dir.resolve("files.txt"), List.of(".", "bin", "bin/busybox", "dev", "init"));
    Path out = dir.resolve("initrd.cpio");
    Process p = new ProcessBuilder("cpio", "-o", "-H", "newc", "--quiet")
        .directory(root.toFile())
        .redirectInput(list.toFile())
        .redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    if (p.waitFor() != 0) {
      throw new IOException("cpio failed with " + p.exitValue());
    }
    return out;
  }
}
