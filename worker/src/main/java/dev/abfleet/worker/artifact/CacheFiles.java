package dev.abfleet.worker.artifact;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * File moves shared by the caches (artifacts, kernels, guest images): entries are built under
 * a temporary name and published by a rename, so readers never see a partial entry.
 */
public final class CacheFiles {

  private CacheFiles() {}

  /**
   * Moves {@code from} to {@code to}, replacing it; atomically where the file system can (the
   * same directory always can).
   */
  public static void moveIntoPlace(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Deletes {@code root} and everything below it; a missing {@code root} is fine. */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
