package dev.abfleet.cli.tokens;

import dev.abfleet.config.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A token file only its owner can read. The file is created with mode 0600 in one step (never
 * created with the umask and narrowed afterwards, which leaves a window), and never over an
 * existing file: a token is shown once, so overwriting one would lose it.
 */
final class TokenFiles {
  private TokenFiles() {}

  /** Refuses {@code file} before a token is made for it: it exists, or its directory does not. */
  static void checkNew(Path file) {
    if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      throw new Problem("--output " + file + ": exists; name a new file (a token file is never overwritten)");
    }
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)) {
      throw new Problem("--output " + file + ": directory " + dir + " does not exist or is not writable; create it"
          + " or name a file elsewhere");
    }
  }

  /** Writes {@code token} and a newline to the new file {@code file}, mode 0600. */
  static void write(Path file, String token) {
    try {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(file, token + "\n", StandardCharsets.US_ASCII);
    } catch (FileAlreadyExistsException e) {
      throw new Problem("--output " + file + ": created by someone else meanwhile; the token was not written, revoke"
          + " it (abfleet tokens list, revoke) and create another");
    } catch (IOException | UnsupportedOperationException e) {
      throw new Problem("--output " + file + ": cannot write (" + e.getMessage() + "); the token was not written,"
          + " revoke it (abfleet tokens list, revoke) and create another");
    }
  }
}
