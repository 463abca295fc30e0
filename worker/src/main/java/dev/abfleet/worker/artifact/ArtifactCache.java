package dev.abfleet.worker.artifact;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Content-addressed store of kernels and initrds, staged before the measured window so that
 * copying never competes with a benchmark. Layout: {@code <root>/sha256/<hex>}. A file appears
 * at its final name only after its hash was verified (temp file in the same directory, then
 * an atomic rename), so a crash never leaves a truncated artifact under a valid name.
 */
public final class ArtifactCache {

  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  private final Path root;

  public ArtifactCache(Path root) {
    this.root = root;
  }

  /**
   * Returns the cached copy of {@code sha256}, staging it from {@code uri} (a local path or a
   * {@code file://} URI) when absent. A cached copy whose size differs from the source is
   * staged again.
   *
   * @throws HashMismatchException the source does not hash to {@code sha256} (nothing is cached)
   * @throws IllegalArgumentException malformed hash or unsupported URI scheme
   * @throws IOException the source cannot be read or the cache written
   */
  public Path stage(String sha256, String uri) throws IOException {
    String hex = sha256.toLowerCase(Locale.ROOT);
    if (!SHA256.matcher(hex).matches()) {
      throw new IllegalArgumentException("'" + sha256 + "' is not a sha256 (64 hex digits)");
    }
    Path source = localPath(uri);
    Path dir = Files.createDirectories(root.resolve("sha256"));
    Path target = dir.resolve(hex);
    if (Files.isRegularFile(target) && (!Files.isRegularFile(source) || Files.size(target) == Files.size(source))) {
      return target;
    }
    if (!Files.isRegularFile(source)) {
      throw new IOException("artifact " + uri + " is not a readable file; check the path on this worker");
    }
    Path tmp = Files.createTempFile(dir, hex + ".", ".part");
    try {
      String actual = Sha256.copy(source, tmp);
      if (!actual.equals(hex)) {
        throw new HashMismatchException(uri, hex, actual);
      }
      // Same directory, so the rename is atomic: readers see the whole file or none.
      CacheFiles.moveIntoPlace(tmp, target);
      return target;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** The cached copy of {@code sha256} if present, without contacting any source. */
  public Optional<Path> lookup(String sha256) {
    Path p = root.resolve("sha256").resolve(sha256.toLowerCase(Locale.ROOT));
    return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
  }

  /** Lower-case hex sha256 of a file's content; see {@link Sha256#ofFile(Path)}. */
  public static String sha256(Path file) throws IOException {
    return Sha256.ofFile(file);
  }

  /**
   * The file an artifact URI names on this host (a path or {@code file://} URI), e.g. to find
   * what lies beside a kernel; empty for an empty URI.
   *
   * @throws IllegalArgumentException unsupported URI scheme
   */
  public static Optional<Path> sourcePath(String uri) {
    return uri == null || uri.isEmpty() ? Optional.empty() : Optional.of(localPath(uri));
  }

  static Path localPath(String uri) {
    if (uri.startsWith("file:")) {
      return Path.of(URI.create(uri));
    }
    int colon = uri.indexOf(':');
    int slash = uri.indexOf('/');
    if (colon > 1 && (slash < 0 || colon < slash)) {
      throw new IllegalArgumentException("unsupported artifact URI scheme '" + uri.substring(0, colon)
          + "' in " + uri + "; only local paths and file:// URIs are staged");
    }
    return Path.of(uri);
  }
}
