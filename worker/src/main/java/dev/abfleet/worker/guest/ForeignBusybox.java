package dev.abfleet.worker.guest;

import dev.abfleet.worker.artifact.DebianPackages;
import dev.abfleet.worker.process.CommandRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A static busybox for guests of another architecture than the host's: Debian's
 * {@code busybox-static:<arch>} unpacked once into
 * {@code CACHE/guest/busybox/<arch>/busybox-static_<debian-arch>/bin/busybox}.
 */
final class ForeignBusybox {

  private ForeignBusybox() {}

  /** The package that holds it, e.g. {@code busybox-static:arm64}. */
  static String packageName(GuestArch arch) {
    return "busybox-static:" + arch.debianArch();
  }

  /**
   * The cached busybox for {@code arch}, fetched with apt-get download and dpkg -x on first use.
   *
   * @throws GuestImageException apt cannot get the package (one line naming the fix)
   */
  static Path fetch(GuestArch arch, Path cacheDir, CommandRunner runner)
      throws GuestImageException, InterruptedException {
    String pkg = packageName(arch);
    try {
      return new DebianPackages(runner).fetch(pkg, cacheDir.resolve("guest").resolve("busybox").resolve(arch.wire()),
          "enable " + arch.debianArch() + " packages with dpkg --add-architecture " + arch.debianArch()
              + " && apt-get update", "bin/busybox", ForeignBusybox::busybox);
    } catch (IOException e) {
      if (Thread.interrupted()) {
        throw new InterruptedException("fetching " + pkg + " interrupted");
      }
      throw new GuestImageException("no static busybox for " + arch.wire() + " guests: " + e.getMessage(), e);
    }
  }

  private static Optional<Path> busybox(Path root) {
    Path p = root.resolve("bin").resolve("busybox");
    return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
  }
}
