package dev.abfleet.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Refuses paths that name something other than a file before anything opens them: opening a FIFO
 * blocks until a writer comes (forever, for a mistyped path), and a device reads without end.
 */
public final class RegularFiles {
  private RegularFiles() {}

  /**
   * One line naming {@code path} as not a regular file and the fix, or empty for a regular file,
   * a directory or a missing path (the caller names those itself). Symbolic links are followed.
   *
   * @param what what the file should be, e.g. "kernel image"
   */
  public static Optional<String> special(Path path, String what) {
    if (!Files.exists(path) || Files.isRegularFile(path) || Files.isDirectory(path)) {
      return Optional.empty();
    }
    return Optional.of(path + " is " + kind(path) + ", not a regular file; pass a regular " + what);
  }

  private static String kind(Path path) {
    try {
      Object mode = Files.getAttribute(path, "unix:mode");
      int type = ((Integer) mode) & 0170000;
      return switch (type) {
        case 0010000 -> "a FIFO (named pipe)";
        case 0140000 -> "a socket";
        case 0020000 -> "a character device";
        case 0060000 -> "a block device";
        default -> "a special file";
      };
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return "a special file";
    }
  }
}
