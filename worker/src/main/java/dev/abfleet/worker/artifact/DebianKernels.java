package dev.abfleet.worker.artifact;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Obtains real Debian kernels (for the demo and end-to-end tests) with the host's own apt:
 * {@code apt-get download <pkg>} then {@code dpkg -x} into {@code <cacheDir>/kernels/<pkg>/}.
 * A package already unpacked there is returned without running anything.
 */
public final class DebianKernels {

  private static final Pattern PACKAGE = Pattern.compile("[a-z0-9][a-z0-9+.-]+(:[a-z0-9-]+)?");
  private static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration EXTRACT_TIMEOUT = Duration.ofMinutes(2);

  private final CommandRunner runner;

  public DebianKernels(CommandRunner runner) {
    this.runner = runner;
  }

  /**
   * The vmlinuz of {@code packageName} (for example {@code linux-image-6.1.0-50-cloud-amd64}),
   * downloaded and unpacked on first use.
   *
   * @throws IOException apt-get or dpkg failed (the message carries their output and the fix),
   *                     or the package holds no boot/vmlinuz-*
   */
  public Path fetch(String packageName, Path cacheDir) throws IOException {
    Path kernels = Files.createDirectories(cacheDir.resolve("kernels"));
    Path dest = kernels.resolve(packageDir(packageName));
    Optional<Path> cached = vmlinuz(dest);
    if (cached.isPresent()) {
      return cached.get();
    }
    Path tmp = Files.createTempDirectory(kernels, packageDir(packageName) + ".tmp-");
    try {
      Path download = Files.createDirectories(tmp.resolve("download"));
      RunResult apt = runner.run(downloadArgv(packageName), download, "apt-get", DOWNLOAD_TIMEOUT);
      if (!apt.succeeded()) {
        throw new IOException("apt-get download " + packageName + " failed: run apt-get update first"
            + " and check the package name (apt-cache search linux-image); "
            + describe(apt));
      }
      Path deb = findDeb(download, packageName);
      Path root = tmp.resolve("root");
      RunResult dpkg = runner.run(extractArgv(deb, root), tmp, "dpkg", EXTRACT_TIMEOUT);
      if (!dpkg.succeeded()) {
        throw new IOException("dpkg -x " + deb + " failed: " + describe(dpkg));
      }
      if (vmlinuz(root).isEmpty()) {
        throw new IOException("package " + packageName + " has no boot/vmlinuz-*; pass a linux-image-* package");
      }
      try {
        Files.move(root, dest, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
        // another fetch of the same package finished first; its copy is as good
      }
      return vmlinuz(dest).orElseThrow(() -> new IOException(dest + " exists but holds no boot/vmlinuz-*;"
          + " delete it and fetch again"));
    } finally {
      CacheFiles.deleteTree(tmp);
    }
  }

  /** {@code apt-get download <pkg>}; pure. */
  public static List<String> downloadArgv(String packageName) {
    checkPackage(packageName);
    return List.of("apt-get", "download", packageName);
  }

  /** {@code dpkg -x <deb> <dir>}; pure. */
  public static List<String> extractArgv(Path deb, Path dir) {
    return List.of("dpkg", "-x", deb.toString(), dir.toString());
  }

  /** The cache subdirectory of a package; {@code :arch} qualifiers become {@code _arch}. */
  static String packageDir(String packageName) {
    checkPackage(packageName);
    return packageName.replace(':', '_');
  }

  private static void checkPackage(String packageName) {
    if (!PACKAGE.matcher(packageName).matches()) {
      throw new IllegalArgumentException("'" + packageName + "' is not a Debian package name"
          + " (expected e.g. linux-image-6.1.0-50-cloud-amd64)");
    }
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

  private static Path findDeb(Path dir, String packageName) throws IOException {
    List<Path> debs = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.deb")) {
      ds.forEach(debs::add);
    }
    if (debs.size() != 1) {
      throw new IOException("apt-get download " + packageName + " left " + debs.size()
          + " .deb files in " + dir + ", expected 1");
    }
    return debs.get(0);
  }

  private static String describe(RunResult r) {
    if (r.launchError() != null) {
      return r.launchError();
    }
    if (r.timedOut()) {
      return "timed out after " + r.wall().toSeconds() + " s";
    }
    return "exit " + r.exitCode() + (r.stderrTail().isBlank() ? "" : ": " + r.stderrTail().strip());
  }
}
