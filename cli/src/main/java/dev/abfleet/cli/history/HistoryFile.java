package dev.abfleet.cli.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A schedule's history: JSON Lines, append-only. Each append writes one whole line and
 * fsyncs it before returning, under an exclusive file lock, so a crash can leave at most one
 * torn (unterminated) last line. Readers never take a torn line as a run: they report it.
 */
public final class HistoryFile {
  static final ObjectMapper JSON = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
      .configure(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS.mappedFeature(), true);

  private final Path path;

  public HistoryFile(Path path) {
    this.path = path;
  }

  /** $home/history/NAME.jsonl */
  public static HistoryFile of(Path home, String schedule) {
    return new HistoryFile(home.resolve("history").resolve(schedule + ".jsonl"));
  }

  public Path path() {
    return path;
  }

  /** A line that is not a run, with its 1-based line number. */
  public record Problem(int line, String message) {
    @Override
    public String toString() {
      return "line " + line + ": " + message;
    }
  }

  /**
   * The runs in file order and the lines that could not be read.
   *
   * @param tornTail true when the last line has no line end (a write cut short by a crash)
   */
  public record Contents(List<HistoryEntry> entries, List<Problem> problems, boolean tornTail) {
    /** The most recent accepted run. */
    public Optional<HistoryEntry> lastAccepted() {
      for (int i = entries.size() - 1; i >= 0; i--) {
        if (entries.get(i).accepted()) {
          return Optional.of(entries.get(i));
        }
      }
      return Optional.empty();
    }
  }

  /** Reads the file; a missing file is an empty history. Never throws on bad content. */
  public Contents read() throws IOException {
    if (!Files.exists(path)) {
      return new Contents(List.of(), List.of(), false);
    }
    String text = Files.readString(path, StandardCharsets.UTF_8);
    List<HistoryEntry> entries = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    boolean torn = !text.isEmpty() && !text.endsWith("\n");
    String[] lines = text.split("\n", -1);
    // The piece after the last line end is empty, or torn.
    for (int i = 0; i < lines.length - 1; i++) {
      parse(lines[i], i + 1, entries, problems);
    }
    if (torn) {
      problems.add(new Problem(lines.length, "torn last line (" + lines[lines.length - 1].length()
          + " bytes without a line end, a write cut short); not counted as a run"));
    }
    return new Contents(List.copyOf(entries), List.copyOf(problems), torn);
  }

  private static void parse(String line, int number, List<HistoryEntry> entries, List<Problem> problems) {
    if (line.isBlank()) {
      return;
    }
    try {
      HistoryEntry e = JSON.readValue(line, HistoryEntry.class);
      if (e.version() != HistoryEntry.VERSION) {
        problems.add(new Problem(number, "format version " + e.version() + "; this abfleet reads version "
            + HistoryEntry.VERSION));
      } else {
        entries.add(e);
      }
    } catch (JsonProcessingException ex) {
      problems.add(new Problem(number, "not a history entry: " + ex.getOriginalMessage()));
    }
  }

  /**
   * Moves a torn last line out of the way, into {@code <file>.torn}, so that the next append
   * starts on a line of its own. Returns a message describing what was moved, or empty when
   * the file was intact.
   */
  public Optional<String> repairTornTail() throws IOException {
    if (!Files.exists(path)) {
      return Optional.empty();
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      byte[] all = Files.readAllBytes(path);
      if (all.length == 0 || all[all.length - 1] == '\n') {
        return Optional.empty();
      }
      int keep = all.length;
      while (keep > 0 && all[keep - 1] != '\n') {
        keep--;
      }
      Path aside = path.resolveSibling(path.getFileName() + ".torn");
      Files.write(aside, java.util.Arrays.copyOfRange(all, keep, all.length),
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      ch.truncate(keep);
      ch.force(true);
      return Optional.of(path + ": torn last line of " + (all.length - keep)
          + " bytes (a write cut short) moved to " + aside);
    }
  }

  /** Appends one run as one line and fsyncs it. A torn tail must be repaired first. */
  public void append(HistoryEntry entry) throws IOException {
    byte[] line = (JSON.writeValueAsString(entry) + "\n").getBytes(StandardCharsets.UTF_8);
    boolean created = !Files.exists(path);
    Files.createDirectories(path.getParent());
    // Under the lock the end cannot move, so writing at size() is an append.
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      long end = ch.size();
      if (end > 0 && !endsWithNewline(ch)) {
        throw new IOException(path + " ends in a torn line; run repairTornTail() before appending");
      }
      ByteBuffer buf = ByteBuffer.wrap(line);
      while (buf.hasRemaining()) {
        end += ch.write(buf, end);
      }
      ch.force(true);
    }
    if (created) {
      syncDirectory(path.getParent());
    }
  }

  private static boolean endsWithNewline(FileChannel ch) throws IOException {
    ByteBuffer last = ByteBuffer.allocate(1);
    ch.read(last, ch.size() - 1);
    return last.get(0) == '\n';
  }

  /** Makes a newly created file's directory entry durable (Linux; a no-op where unsupported). */
  private static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Not every platform can open a directory; the file's own fsync still holds its data.
    }
  }
}
