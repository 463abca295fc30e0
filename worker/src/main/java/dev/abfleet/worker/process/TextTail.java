package dev.abfleet.worker.process;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Last lines of a log file, readable by a human: terminal escape codes and stray control characters removed. */
public final class TextTail {

  /** Lines kept in failure reports: enough for a kernel panic trace's head. */
  public static final int DEFAULT_LINES = 40;

  // Only the end of a (possibly huge) console log is read.
  private static final int MAX_BYTES = 64 * 1024;

  // CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), and two-byte ESC sequences.
  private static final Pattern ESCAPES = Pattern.compile(
      "\u001B\\[[0-?]*[ -/]*[@-~]|\u001B\\][^\u0007\u001B]*(?:\u0007|\u001B\\\\)?|\u001B[@-Z\\\\-_]?");
  private static final Pattern CONTROLS = Pattern.compile("[\\x00-\\x08\\x0B-\\x1F\\x7F]");

  private TextTail() {}

  /** The last {@code maxLines} lines of {@code file}; empty when the file is missing or unreadable. */
  public static String of(Path file, int maxLines) {
    try (SeekableByteChannel ch = Files.newByteChannel(file)) {
      long size = ch.size();
      int n = (int) Math.min(size, MAX_BYTES);
      ch.position(size - n);
      ByteBuffer buf = ByteBuffer.allocate(n);
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // keep reading until the window is full
      }
      return lastLines(new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8), maxLines);
    } catch (NoSuchFileException e) {
      return "";
    } catch (IOException e) {
      return "";
    }
  }

  /** Cleans {@code text} and keeps its last {@code maxLines} non-trailing lines. */
  public static String lastLines(String text, int maxLines) {
    String clean = strip(text);
    List<String> lines = new ArrayList<>(List.of(clean.split("\n", -1)));
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
      lines.remove(lines.size() - 1);
    }
    int from = Math.max(0, lines.size() - maxLines);
    return String.join("\n", lines.subList(from, lines.size()));
  }

  /** Removes terminal escape sequences, carriage returns and other control characters except tab and newline. */
  public static String strip(String text) {
    String noEsc = ESCAPES.matcher(text).replaceAll("");
    return CONTROLS.matcher(noEsc.replace("\r\n", "\n")).replaceAll("");
  }
}
