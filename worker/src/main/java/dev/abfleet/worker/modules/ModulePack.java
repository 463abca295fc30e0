package dev.abfleet.worker.modules;

import dev.abfleet.worker.artifact.CacheFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * The part of a module tree a guest can need, as one deterministic archive that a client uploads
 * instead of naming a directory on the workers: the files {@code modules.dep} names for the
 * wanted modules and their dependencies, a {@code modules.dep} with only their lines, and the
 * tree's {@code modules.builtin}. An uncompressed tar whose entries lie under
 * {@code <release>/}, sorted by name, with mtime 0, owner 0:0 and mode 0644: the same tree and
 * names give the same bytes, so the same SHA-256. {@link #unpack Unpacked}, it is a
 * {@link ModuleTree} that {@link GuestModules} resolves as it would the original.
 */
public final class ModulePack {

  /** Modules the hypervisors' guest devices need on some architecture (QemuDriver, VzDriver). */
  static final List<String> FOR_DEVICES = List.of("virtio_pci", "virtio_mmio", "virtio_console", "fuse", "virtiofs");

  /** A packed tree on disk: its SHA-256 and file. */
  public record Packed(String sha256, Path path) {}

  private ModulePack() {}

  /**
   * The module names a guest of an arm can ask its tree for: those of the hypervisors' devices,
   * of the volume transports the worker may pick, and the arm's own.
   */
  public static List<String> wanted(List<String> forArm, List<String> forVolume) {
    Set<String> names = new LinkedHashSet<>(FOR_DEVICES);
    names.addAll(forVolume);
    names.addAll(forArm);
    return List.copyOf(names);
  }

  /**
   * The archive of {@code wanted} (and their dependencies) from {@code tree}; modules neither in
   * modules.dep nor built in are left out, for the worker to report as it would for the whole tree.
   *
   * @param index the tree's parsed modules.dep and modules.builtin ({@link ModuleTree#index})
   */
  public static byte[] archive(ModuleTree tree, ModuleTree.Index index, List<String> wanted) throws IOException {
    ModuleResolution r = ModuleResolution.resolve(index.dep(), index.builtIn(), wanted);
    Map<String, byte[]> entries = new TreeMap<>();
    StringBuilder dep = new StringBuilder();
    for (String path : r.loadOrder()) {
      entries.put(path, Files.readAllBytes(tree.file(path)));
      ModulesDep.nameOf(path).flatMap(index.dep()::get).ifPresent(m -> dep.append(m.path()).append(':')
          .append(m.deps().isEmpty() ? "" : " " + String.join(" ", m.deps())).append('\n'));
    }
    entries.put("modules.dep", dep.toString().getBytes(StandardCharsets.UTF_8));
    Path builtin = tree.file("modules.builtin");
    if (Files.isRegularFile(builtin)) {
      entries.put("modules.builtin", Files.readAllBytes(builtin));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out, StandardCharsets.UTF_8.name())) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (var e : entries.entrySet()) {
        TarArchiveEntry entry = new TarArchiveEntry(tree.release() + "/" + e.getKey());
        entry.setSize(e.getValue().length);
        entry.setModTime(0);
        entry.setIds(0, 0);
        entry.setNames("", "");
        entry.setMode(0100644);
        tar.putArchiveEntry(entry);
        tar.write(e.getValue());
        tar.closeArchiveEntry();
      }
      tar.finish();
    }
    return out.toByteArray();
  }

  /** Writes {@code archive} once to {@code cacheDir}/modules/packs/, named by its SHA-256. */
  public static Packed store(byte[] archive, Path cacheDir) throws IOException {
    String sha = sha256(archive);
    Path dir = Files.createDirectories(cacheDir.resolve("modules").resolve("packs"));
    Path file = dir.resolve(sha + ".tar");
    if (!Files.isRegularFile(file) || Files.size(file) != archive.length) {
      Path tmp = Files.createTempFile(dir, ".pack-", ".tmp");
      Files.write(tmp, archive);
      CacheFiles.moveIntoPlace(tmp, file);
    }
    return new Packed(sha, file);
  }

  /**
   * The tree a staged archive holds, unpacked once to {@code cacheDir/modules/<sha256>/<release>}
   * (a concurrent unpack of the same archive is as good).
   *
   * @throws IOException the archive cannot be read, or has an entry that is not a regular file
   *     below one {@code <release>/} directory (absolute, with {@code ..}, a link): it was not
   *     made by {@link #archive}
   */
  public static ModuleTree unpack(Path archive, String sha256, Path cacheDir) throws IOException {
    if (!sha256.matches("[0-9a-f]{64}")) {
      throw new IOException("module tree sha256 '" + sha256 + "' is not a lower-case hex SHA-256");
    }
    Path modules = Files.createDirectories(cacheDir.resolve("modules"));
    Path target = modules.resolve(sha256);
    Optional<ModuleTree> done = unpacked(target);
    if (done.isPresent()) {
      return done.get();
    }
    Path tmp = Files.createTempDirectory(modules, ".unpack-");
    try {
      extract(archive, tmp);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
        // another boot unpacked the same archive first; its tree is as good
      }
      return unpacked(target).orElseThrow(() -> new IOException("module tree archive " + archive
          + " holds no <release>/modules.dep"));
    } finally {
      CacheFiles.deleteTree(tmp);
    }
  }

  private static Optional<ModuleTree> unpacked(Path target) throws IOException {
    if (!Files.isDirectory(target)) {
      return Optional.empty();
    }
    try (var dirs = Files.list(target)) {
      return dirs.filter(d -> Files.isRegularFile(d.resolve("modules.dep"))).findFirst().map(ModuleTree::at);
    }
  }

  private static void extract(Path archive, Path into) throws IOException {
    String release = null;
    try (InputStream file = Files.newInputStream(archive);
        TarArchiveInputStream tar = new TarArchiveInputStream(file, StandardCharsets.UTF_8.name())) {
      for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
        String name = e.getName();
        List<String> parts = List.of(name.split("/"));
        if (!e.isFile() || name.startsWith("/") || parts.size() < 2 || parts.contains("..") || parts.contains(".")
            || parts.contains("") || (release != null && !release.equals(parts.get(0)))) {
          throw new IOException("module tree archive " + archive + " has entry '" + name + "'; expected regular"
              + " files below one <release>/ directory, without '..' or absolute paths");
        }
        release = parts.get(0);
        Path out = into.resolve(name).normalize();
        if (!out.startsWith(into)) {
          throw new IOException("module tree archive " + archive + " has entry '" + name + "' outside its tree");
        }
        Files.createDirectories(out.getParent());
        Files.copy(tar, out);
      }
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
