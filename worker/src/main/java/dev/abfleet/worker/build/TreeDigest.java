package dev.abfleet.worker.build;

import dev.abfleet.worker.artifact.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;

/**
 * The identity of an unpacked tree: sha256 over its sorted relative paths with each file's size
 * and modification time ({@code .git} left out). Cheap next to hashing every byte, and an edit
 * changes the time, but the digest is meaningful on this machine only: a copy elsewhere, or a
 * fresh checkout of the same files, gets another.
 */
final class TreeDigest {

  private TreeDigest() {}

  /** The digest of {@code dir}; throws {@link BuildInputException} (SOURCE) when it is not a readable kernel tree. */
  static String of(Path dir) {
    if (!Files.isRegularFile(dir.resolve("Makefile")) || !Files.isDirectory(dir.resolve("kernel"))) {
      throw new BuildInputException(BuildResult.Kind.SOURCE, dir.toString(), dir
          + " is not a kernel tree (no Makefile and kernel/ at its top); pass the top directory of the source");
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Path> files = walk.filter(p -> !isGit(dir.relativize(p))).sorted().toList();
      StringBuilder listing = new StringBuilder();
      for (Path p : files) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        listing.append(dir.relativize(p)).append('\0').append(a.isDirectory() ? "d" : a.size()).append('\0')
            .append(a.lastModifiedTime().toMillis()).append('\n');
      }
      return Sha256.ofParts(Sha256.utf8(listing.toString()));
    } catch (IOException | UncheckedIOException e) {
      throw new BuildInputException(BuildResult.Kind.SOURCE, dir.toString(), "cannot list the tree " + dir + " ("
          + e.getMessage() + "); check its permissions");
    }
  }

  private static boolean isGit(Path relative) {
    return relative.getNameCount() > 0 && relative.getName(0).toString().equals(".git");
  }
}
