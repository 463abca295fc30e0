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
import java.util.stream.Collectors;

/**
 * Debian packages unpacked with the host's own apt: {@code apt-get download <pkg>}, then
 * {@code dpkg -x} into {@code <parent>/<pkg>/} ({@code :arch} qualifiers become {@code _arch}).
 * The tree is unpacked in a temporary directory and renamed into place, so a reader never sees
 * half a package; a package whose file is already there is returned without running anything.
 */
public final class DebianPackages {

  /** Finds the file a caller wants in an unpacked package, e.g. {@code boot/vmlinuz-*}. */
  @FunctionalInterface
  public interface Finder {
    Optional<Path> find(Path root) throws IOException;
  }

  private static final Pattern PACKAGE = Pattern.compile("[a-z0-9][a-z0-9+.-]+(:[a-z0-9-]+)?");
  private static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration EXTRACT_TIMEOUT = Duration.ofMinutes(2);

  private final CommandRunner runner;

  public DebianPackages(CommandRunner runner) {
    this.runner = runner;
  }

  /**
   * The file {@code finder} picks in {@code packageName}, downloaded and unpacked under
   * {@code parent} on first use.
   *
   * @param downloadFix what to do when apt-get download fails, e.g. "run apt-get update first"
   * @param wanted the file looked for, for messages, e.g. "boot/vmlinuz-*"
   * @throws IOException apt-get or dpkg failed (the message is one line with their error and
   *     {@code downloadFix}), or the package holds no {@code wanted}
   */
  public Path fetch(String packageName, Path parent, String downloadFix, String wanted, Finder finder)
      throws IOException {
    Path dir = Files.createDirectories(parent);
    Path dest = dir.resolve(packageDir(packageName));
    Optional<Path> cached = Files.isDirectory(dest) ? finder.find(dest) : Optional.empty();
    if (cached.isPresent()) {
      return cached.get();
    }
    Path tmp = Files.createTempDirectory(dir, packageDir(packageName) + ".tmp-");
    try {
      Path download = Files.createDirectories(tmp.resolve("download"));
      RunResult apt = runner.run(downloadArgv(packageName), download, "apt-get", DOWNLOAD_TIMEOUT);
      if (!apt.succeeded()) {
        throw new IOException("apt-get download " + packageName + " failed: " + downloadFix + "; " + describe(apt));
      }
      Path deb = findDeb(download, packageName);
      Path root = tmp.resolve("root");
      RunResult dpkg = runner.run(extractArgv(deb, root), tmp, "dpkg", EXTRACT_TIMEOUT);
      if (!dpkg.succeeded()) {
        throw new IOException("dpkg -x " + deb + " failed: " + describe(dpkg));
      }
      if (finder.find(root).isEmpty()) {
        throw new IOException("package " + packageName + " has no " + wanted + "; check the package name");
      }
      try {
        Files.move(root, dest, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
        // another fetch of the same package finished first; its copy is as good
      }
      return finder.find(dest).orElseThrow(() -> new IOException(dest + " exists but holds no " + wanted
          + "; delete it and fetch again"));
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

  /** How a tool failed, on one line: apt prints its errors over several. */
  private static String describe(RunResult r) {
    if (r.launchError() != null) {
      return r.launchError();
    }
    if (r.timedOut()) {
      return "timed out after " + r.wall().toSeconds() + " s";
    }
    String stderr = r.stderrTail() == null ? "" : r.stderrTail().lines().map(String::strip)
        .filter(l -> !l.isEmpty()).collect(Collectors.joining(" / "));
    return "exit " + r.exitCode() + (stderr.isEmpty() ? "" : ": " + stderr);
  }
}
