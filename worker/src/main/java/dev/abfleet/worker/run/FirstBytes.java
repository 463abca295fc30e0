package dev.abfleet.worker.run;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The first bytes of a guest's output, quoted for a one-line message: what a flooding guest
 * wrote tells the user which program ran away. Printable ASCII stays as it is; a backslash, a
 * double quote and everything else are escaped ({@code \\}, {@code \"}, {@code \n}, {@code \xNN}),
 * so binary garbage cannot break the message or the terminal that prints it.
 */
final class FirstBytes {
  /** Bytes quoted at most. */
  static final int QUOTED = 120;

  private FirstBytes() {}

  /** The quoted head of {@code file}; {@code (no output)} when it is missing or empty. */
  static String of(Path file) {
    if (file == null || !Files.isRegularFile(file)) {
      return "(no output)";
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(QUOTED);
      return head.length == 0 ? "(no output)" : quote(head);
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  static String quote(byte[] bytes) {
    StringBuilder out = new StringBuilder("\"");
    for (byte b : bytes) {
      int c = b & 0xff;
      if (c == '\\' || c == '"') {
        out.append('\\').append((char) c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c >= 0x20 && c < 0x7f) {
        out.append((char) c);
      } else {
        out.append(String.format("\\x%02x", c));
      }
    }
    return out.append('"').toString();
  }
}
