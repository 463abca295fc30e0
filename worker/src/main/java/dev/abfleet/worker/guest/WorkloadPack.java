package dev.abfleet.worker.guest;

import dev.abfleet.worker.artifact.CacheFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.cpio.CpioArchiveOutputStream;
import org.apache.commons.compress.archivers.cpio.CpioConstants;

/**
 * Packs a workload directory into an initramfs layer: a gzip-compressed newc cpio archive whose
 * entries unpack under {@code /workload} in the guest. The kernel unpacks concatenated archives,
 * so the layer is simply appended to the guest image.
 *
 * <p>Regular files keep their owner's executable bit (mode 0755, else 0644), directories are
 * 0755, symlinks are kept when relative and pointing inside the directory; anything else is
 * refused. Deterministic: entries sorted by path, owned by root, mtime 0, inode numbers in
 * order, so the same directory gives the same SHA-256 (with the same JDK's zlib). Cached as
 * {@code CACHE/guest/workloads/SHA256.cpio.gz}; written to a temp file and moved into place.
 */
public final class WorkloadPack {

  /** Total bytes of the files (and symlink targets) one workload may carry into the guest. */
  public static final long MAX_BYTES = 256L << 20;
  /** Where the layer unpacks in the guest. */
  public static final String ROOT = "workload";
  /** Reserved at the top of the workload for the run's settings (see {@link WorkloadImage}). */
  public static final String RESERVED = ".abfleet";

  /**
   * The packed layer.
   *
   * @param path the archive in the cache
   * @param sha256 lower-case hex SHA-256 of the archive
   * @param bytes size of the archive in bytes
   */
  public record Packed(Path path, String sha256, long bytes) {}

  private record Item(String name, Path path, Kind kind, long size) {}

  private enum Kind { DIR, FILE, EXECUTABLE, SYMLINK }

  private WorkloadPack() {}

  /**
   * Packs {@code dir} (or returns the cached layer with the same content).
   *
   * @param cacheDir abfleet cache root ($ABFLEET_HOME or ~/.cache/abfleet)
   * @throws WorkloadPackException {@code dir} is not a directory, holds a special file or a symlink
   *     out of it, uses the reserved name {@value #RESERVED}, is over {@link #MAX_BYTES}, or cannot
   *     be read; or the cache cannot be written
   */
  public static Packed pack(Path dir, Path cacheDir) throws WorkloadPackException {
    return pack(dir, cacheDir, MAX_BYTES);
  }

  static Packed pack(Path dir, Path cacheDir, long maxBytes) throws WorkloadPackException {
    if (!Files.isDirectory(dir)) {
      throw new WorkloadPackException("workload files " + dir + " is not a directory; give the directory"
          + " holding the workload's files");
    }
    Path root;
    try {
      root = dir.toRealPath();
    } catch (IOException e) {
      throw new WorkloadPackException("cannot read workload files " + dir + ": " + e, e);
    }
    List<Item> items = list(root);
    long total = items.stream().mapToLong(Item::size).sum();
    if (total > maxBytes) {
      throw new WorkloadPackException(String.format(Locale.ROOT,
          "workload files %s hold %.1f MiB (%d bytes), over the cap of %d MiB; leave build outputs and data out"
              + " of the directory, or have the run command create them in the guest",
          dir, total / 1048576.0, total, maxBytes >> 20));
    }
    Path target = null;
    Path tmp = null;
    try {
      Path out = Files.createDirectories(cacheDir.resolve("guest").resolve("workloads"));
      tmp = Files.createTempFile(out, ".workload-", ".tmp");
      MessageDigest digest = sha256();
      try (OutputStream file = new DigestOutputStream(Files.newOutputStream(tmp), digest);
          CpioArchiveOutputStream cpio =
              new CpioArchiveOutputStream(new GZIPOutputStream(file), CpioConstants.FORMAT_NEW)) {
        write(cpio, items);
        cpio.finish();
      }
      String sha = HexFormat.of().formatHex(digest.digest());
      target = out.resolve(sha + ".cpio.gz");
      if (!Files.isRegularFile(target)) {
        worldReadable(tmp);
        CacheFiles.moveIntoPlace(tmp, target);
      }
      return new Packed(target, sha, Files.size(target));
    } catch (IOException e) {
      throw new WorkloadPackException("cannot pack workload files " + dir + " into "
          + (target != null ? target : cacheDir.resolve("guest").resolve("workloads")) + ": " + e, e);
    } finally {
      deleteQuietly(tmp);
    }
  }

  /** Every entry below {@code root}, checked, sorted by archive name (parents before children). */
  private static List<Item> list(Path root) throws WorkloadPackException {
    List<Item> items = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
          if (!d.equals(root)) {
            add(root, d, a, items, problems);
          }
          return problems.isEmpty() ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
        }

        @Override
        public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
          add(root, f, a, items, problems);
          return problems.isEmpty() ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path f, IOException e) {
          problems.add("cannot read workload file " + f + ": " + e);
          return FileVisitResult.TERMINATE;
        }
      });
    } catch (IOException e) {
      throw new WorkloadPackException("cannot read workload files " + root + ": " + e, e);
    }
    if (!problems.isEmpty()) {
      throw new WorkloadPackException(problems.get(0));
    }
    items.sort(Comparator.comparing(Item::name));
    return items;
  }

  private static void add(Path root, Path p, BasicFileAttributes a, List<Item> items, List<String> problems) {
    String rel = root.relativize(p).toString().replace('\\', '/');
    String name = ROOT + "/" + rel;
    if (rel.equals(RESERVED) || rel.startsWith(RESERVED + "/")) {
      problems.add("workload file " + p + ": the name " + RESERVED + " at the top of a workload is reserved for"
          + " abfleet's run settings; rename it");
    } else if (a.isSymbolicLink()) {
      symlink(root, p, name, items, problems);
    } else if (a.isDirectory()) {
      items.add(new Item(name, p, Kind.DIR, 0));
    } else if (a.isRegularFile()) {
      items.add(new Item(name, p, executable(p) ? Kind.EXECUTABLE : Kind.FILE, a.size()));
    } else {
      problems.add("workload file " + p + " is not a regular file, directory or symlink (a device, FIFO or"
          + " socket); a workload may only hold those, remove it from the directory");
    }
  }

  private static void symlink(Path root, Path p, String name, List<Item> items, List<String> problems) {
    Path target;
    try {
      target = Files.readSymbolicLink(p);
    } catch (IOException e) {
      problems.add("cannot read the symlink " + p + ": " + e);
      return;
    }
    if (target.isAbsolute() || !resolvesInside(root, p, target)) {
      problems.add("workload symlink " + p + " -> " + target + " points "
          + (target.isAbsolute() ? "to an absolute path" : "out of " + root)
          + "; the guest only has the workload's own files: make it a relative link inside the directory,"
          + " or copy the file in");
      return;
    }
    items.add(new Item(name, target, Kind.SYMLINK, target.toString().length()));
  }

  /**
   * Where the link leads, as the guest will resolve it: through the other links when it exists
   * ({@code x/up/..} with {@code up -> ..} leaves the directory although its text does not).
   */
  private static boolean resolvesInside(Path root, Path link, Path target) {
    try {
      if (Files.exists(link)) {
        return link.toRealPath().startsWith(root);
      }
    } catch (IOException e) {
      return false;
    }
    return link.getParent().resolve(target).normalize().startsWith(root);
  }

  private static void write(CpioArchiveOutputStream cpio, List<Item> items) throws IOException {
    InitramfsBuilder.Entries e = new InitramfsBuilder.Entries(cpio);
    e.dir(ROOT, 0755);
    for (Item item : items) {
      switch (item.kind()) {
        case DIR -> e.dir(item.name(), 0755);
        case FILE -> e.file(item.name(), 0644, Files.readAllBytes(item.path()));
        case EXECUTABLE -> e.file(item.name(), 0755, Files.readAllBytes(item.path()));
        case SYMLINK -> e.symlink(item.name(), item.path().toString());
      }
    }
  }

  private static boolean executable(Path p) {
    try {
      return Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS).contains(PosixFilePermission.OWNER_EXECUTE);
    } catch (IOException | UnsupportedOperationException e) {
      return Files.isExecutable(p);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }

  /** The VM process may run as another user than the one packing; the layer holds no secrets. */
  static void worldReadable(Path p) throws IOException {
    try {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: keep the default permissions.
    }
  }

  static void deleteQuietly(Path p) {
    if (p != null) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException ignored) {
        // A leftover temp file in the cache is harmless and never used.
      }
    }
  }
}
