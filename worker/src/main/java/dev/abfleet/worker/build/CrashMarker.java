package dev.abfleet.worker.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;

/**
 * A build of a warm tree that stopped while compiling (its builder was killed, its host lost
 * power) may leave an object file half written, newer than its source: make would take it as up
 * to date and link it. The marker {@code out/.abfleet-compiling} is written before make starts
 * and removed once make has ended by itself; a build that finds it removes what the stopped
 * build wrote (every file newer than the marker, except the config and generated headers, which
 * are written whole) so that make writes those files again.
 */
final class CrashMarker {
  static final String NAME = ".abfleet-compiling";

  private CrashMarker() {}

  /**
   * Called before make: removes a stopped build's output if its marker is there, then sets the
   * marker. Returns how many files were removed (0 when the last build ended cleanly).
   */
  static int arm(Path out) throws IOException {
    Path marker = out.resolve(NAME);
    int removed = Files.exists(marker) ? discardNewerThan(out, Files.getLastModifiedTime(marker)) : 0;
    Files.createDirectories(out);
    Files.deleteIfExists(marker);
    Files.writeString(marker, "");
    return removed;
  }

  /** Called once make has ended by itself (succeeded or failed): its output is whole. */
  static void disarm(Path out) throws IOException {
    Files.deleteIfExists(out.resolve(NAME));
  }

  private static int discardNewerThan(Path out, FileTime since) throws IOException {
    List<Path> stale;
    try (Stream<Path> files = Files.walk(out)) {
      stale = files.filter(Files::isRegularFile).filter(p -> written(p, since)).filter(p -> removable(out, p))
          .toList();
    }
    for (Path p : stale) {
      Files.deleteIfExists(p);
    }
    return stale.size();
  }

  private static boolean written(Path p, FileTime since) {
    try {
      return Files.getLastModifiedTime(p).compareTo(since) >= 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** Not the marker, the config or a generated header (make writes those through a temporary file). */
  static boolean removable(Path out, Path p) {
    String rel = out.relativize(p).toString().replace('\\', '/');
    return !rel.equals(NAME) && !rel.equals(".config") && !rel.startsWith("include/") && !rel.contains("/include/");
  }
}
