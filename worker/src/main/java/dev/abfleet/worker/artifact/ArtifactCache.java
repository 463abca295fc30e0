package dev.abfleet.worker.artifact;

import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Content-addressed store of kernels and initrds, staged before the measured window so that
 * copying never competes with a benchmark. Layout: {@code <root>/sha256/<hex>}. A file appears
 * at its final name only after its hash was verified (temp file in the same directory, then
 * an atomic rename), so a crash never leaves a truncated artifact under a valid name.
 *
 * <p>Sources: a local path or {@code file://} URI, or {@code abfleet:sha256:<hex>}, fetched from
 * the controller's store ({@link RemoteSource}); a partial fetch stays as {@code <hex>.part} and
 * the next stage resumes it.
 *
 * <p>Size: the cache holds at most {@code maxBytes}; staging evicts the least recently used
 * artifacts to make room (those staged by this process by their last stage, more recent than any
 * other; the others by file time), but never one staged since the last {@link #beginRun()}: the
 * worker boots one VM at a time, so those are the ones the current boot reads.
 */
public final class ArtifactCache {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ArtifactCache.class);

  /** Where {@code abfleet:sha256:} artifacts come from. */
  @FunctionalInterface
  public interface RemoteSource {
    /** Appends the artifact's bytes to {@code partial} from its current length on. */
    void fetchInto(String sha256, Path partial) throws IOException;
  }

  private final Path root;
  private final long maxBytes;
  private final RemoteSource remote;
  private final Set<String> pinned = new HashSet<>();
  /** Logical time of each artifact's last stage by this process. */
  private final Map<String, Long> lastUse = new HashMap<>();
  private long clock;

  /** A cache without a cap that stages local paths only. */
  public ArtifactCache(Path root) {
    this(root, Long.MAX_VALUE, null);
  }

  /** @param remote fetches {@code abfleet:} artifacts; null = such URIs are refused */
  public ArtifactCache(Path root, long maxBytes, RemoteSource remote) {
    this.root = root;
    this.maxBytes = maxBytes;
    this.remote = remote;
  }

  /** A new boot begins: what earlier boots staged may be evicted again. */
  public synchronized void beginRun() {
    pinned.clear();
  }

  /**
   * Returns the cached copy of {@code sha256}, staging it from {@code uri} when absent. A
   * cached copy whose size differs from a local source is staged again.
   *
   * @throws HashMismatchException the source does not hash to {@code sha256} (nothing is cached)
   * @throws IllegalArgumentException malformed hash or unsupported URI scheme
   * @throws IOException the source cannot be read, the cache written, or the artifact is larger
   *     than the cache's cap
   */
  public synchronized Path stage(String sha256, String uri) throws IOException {
    String hex = ArtifactUri.checked(sha256);
    Path dir = Files.createDirectories(root.resolve("sha256"));
    Path target = dir.resolve(hex);
    if (ArtifactUri.isController(uri)) {
      String named = ArtifactUri.sha256(uri).orElseThrow();
      if (!named.equals(hex)) {
        throw new IllegalArgumentException("artifact uri " + uri + " names another sha256 than " + hex
            + "; the client must send abfleet:sha256:<the artifact's sha256>");
      }
      return Files.isRegularFile(target) ? used(hex, target) : fetch(hex, dir, target);
    }
    Path source = localPath(uri);
    if (Files.isRegularFile(target) && (!Files.isRegularFile(source) || Files.size(target) == Files.size(source))) {
      return used(hex, target);
    }
    if (!Files.isRegularFile(source)) {
      throw new IOException("artifact " + uri + " is not a readable file; check the path on this worker");
    }
    makeRoom(hex, Files.size(source));
    Path tmp = Files.createTempFile(dir, hex + ".", ".tmp");
    try {
      String actual = Sha256.copy(source, tmp);
      if (!actual.equals(hex)) {
        throw new HashMismatchException(uri, hex, actual);
      }
      // Same directory, so the rename is atomic: readers see the whole file or none.
      CacheFiles.moveIntoPlace(tmp, target);
      return used(hex, target);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private Path fetch(String hex, Path dir, Path target) throws IOException {
    if (remote == null) {
      throw new IOException("artifact " + ArtifactUri.of(hex) + " must come from the controller, but this cache"
          + " has no controller connection; run it inside `abfleet worker --controller HOST:PORT`");
    }
    Path partial = dir.resolve(hex + ".part");
    // The size is known once fetched: room is made then, before the artifact becomes visible.
    remote.fetchInto(hex, partial);
    String actual = Sha256.ofFile(partial);
    if (!actual.equals(hex)) {
      Files.deleteIfExists(partial);
      throw new HashMismatchException(ArtifactUri.of(hex) + " (fetched from the controller)", hex, actual);
    }
    try {
      makeRoom(hex, Files.size(partial));
    } catch (IOException e) {
      Files.deleteIfExists(partial);
      throw e;
    }
    CacheFiles.moveIntoPlace(partial, target);
    log.info("artifact {} fetched from the controller ({} bytes)", hex, Files.size(target));
    return used(hex, target);
  }

  private Path used(String hex, Path target) {
    pinned.add(hex);
    lastUse.put(hex, ++clock);
    return target;
  }

  /**
   * Evicts least recently used artifacts, never pinned ones, until {@code bytes} more fit.
   *
   * @throws IOException the artifact alone is larger than the cap, or the pinned ones leave no room
   */
  private void makeRoom(String hex, long bytes) throws IOException {
    if (bytes > maxBytes) {
      throw new IOException("artifact " + hex + " is " + bytes + " bytes, larger than this worker's artifact cache"
          + " cap of " + maxBytes + " bytes; raise it with abfleet worker --artifact-cache-max-bytes");
    }
    List<Entry> entries = entries();
    long used = entries.stream().mapToLong(Entry::bytes).sum();
    entries.sort(Comparator.comparing((Entry e) -> lastUse.containsKey(e.hex()))
        .thenComparingLong(e -> lastUse.getOrDefault(e.hex(), e.fileTime().toMillis())));
    for (Entry e : entries) {
      if (used + bytes <= maxBytes) {
        return;
      }
      if (!pinned.contains(e.hex()) && !e.hex().equals(hex)) {
        Files.deleteIfExists(e.path());
        lastUse.remove(e.hex());
        used -= e.bytes();
      }
    }
    if (used + bytes > maxBytes) {
      throw new IOException("this worker's artifact cache cannot fit " + hex + " (" + bytes + " bytes): the cap is "
          + maxBytes + " bytes and the current boot's artifacts hold " + used + "; raise abfleet worker"
          + " --artifact-cache-max-bytes");
    }
  }

  private record Entry(String hex, Path path, long bytes, FileTime fileTime) {}

  private List<Entry> entries() throws IOException {
    List<Entry> out = new ArrayList<>();
    Path dir = root.resolve("sha256");
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        String name = p.getFileName().toString();
        if (name.length() == 64 && Files.isRegularFile(p)) {
          out.add(new Entry(name, p, Files.size(p), Files.getLastModifiedTime(p)));
        }
      }
    }
    return out;
  }

  /** The cached copy of {@code sha256} if present, without contacting any source. */
  public Optional<Path> lookup(String sha256) {
    Path p = root.resolve("sha256").resolve(ArtifactUri.checked(sha256));
    return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
  }

  /** Lower-case hex sha256 of a file's content; see {@link Sha256#ofFile(Path)}. */
  public static String sha256(Path file) throws IOException {
    return Sha256.ofFile(file);
  }

  /**
   * The file an artifact URI names on this host (a path or {@code file://} URI), e.g. to find
   * what lies beside a kernel; empty for an empty URI and for {@code abfleet:} URIs (the file is
   * in the controller's store, nothing lies beside it).
   *
   * @throws IllegalArgumentException unsupported URI scheme
   */
  public static Optional<Path> sourcePath(String uri) {
    return uri == null || uri.isEmpty() || ArtifactUri.isController(uri)
        ? Optional.empty() : Optional.of(localPath(uri));
  }

  static Path localPath(String uri) {
    Path path;
    if (uri.startsWith("file:")) {
      path = Path.of(URI.create(uri));
    } else {
      int colon = uri.indexOf(':');
      int slash = uri.indexOf('/');
      if (colon > 1 && (slash < 0 || colon < slash)) {
        throw new IllegalArgumentException("unsupported artifact URI scheme '" + uri.substring(0, colon)
            + "' in " + uri + "; only local paths, file:// URIs and " + ArtifactUri.PREFIX + "<hex> are staged");
      }
      path = Path.of(uri);
    }
    // The controller refuses these too; a worker does not rely on it to stay inside the path it was given.
    for (Path segment : path) {
      if (segment.toString().equals("..")) {
        throw new IllegalArgumentException("artifact uri " + uri + " contains '..'; send an absolute, normalized"
            + " path");
      }
    }
    return path;
  }
}
