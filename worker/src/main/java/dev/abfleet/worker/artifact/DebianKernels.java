package dev.abfleet.worker.artifact;

import dev.abfleet.worker.process.CommandRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Obtains real Debian kernels (for the demo and end-to-end tests) with the host's own apt
 * ({@link DebianPackages}): {@code apt-get download <pkg>} then {@code dpkg -x} into
 * {@code <cacheDir>/kernels/<pkg>/}. A package already unpacked there is returned without
 * running anything.
 */
public final class DebianKernels {

  private final DebianPackages packages;

  public DebianKernels(CommandRunner runner) {
    this.packages = new DebianPackages(runner);
  }

  /**
   * The vmlinuz of {@code packageName} (for example {@code linux-image-6.1.0-50-cloud-amd64},
   * or {@code linux-image-6.1.0-50-cloud-arm64:arm64} on a host with arm64 in its dpkg
   * architectures), downloaded and unpacked on first use.
   *
   * @throws IOException apt-get or dpkg failed (the message carries their output and the fix),
   *                     or the package holds no boot/vmlinuz-*
   */
  public Path fetch(String packageName, Path cacheDir) throws IOException {
    return packages.fetch(packageName, cacheDir.resolve("kernels"),
        "run apt-get update first and check the package name (apt-cache search linux-image)",
        "boot/vmlinuz-*", DebianKernels::vmlinuz);
  }

  /** {@code apt-get download <pkg>}; pure. */
  public static List<String> downloadArgv(String packageName) {
    return DebianPackages.downloadArgv(packageName);
  }

  /** {@code dpkg -x <deb> <dir>}; pure. */
  public static List<String> extractArgv(Path deb, Path dir) {
    return DebianPackages.extractArgv(deb, dir);
  }

  private static Optional<Path> vmlinuz(Path root) throws IOException {
    Path boot = root.resolve("boot");
    if (!Files.isDirectory(boot)) {
      return Optional.empty();
    }
    try (Stream<Path> s = Files.list(boot)) {
      return s.filter(p -> p.getFileName().toString().startsWith("vmlinuz-")).sorted().findFirst();
    }
  }
}
