package dev.abfleet.worker.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A line that says a started process has finished its work, though it may not exit by itself:
 * once {@code file} contains one of {@code markers}, the process gets {@code grace} to exit and
 * is then stopped (see {@link CommandRunner#run(List, Path, String, Duration, List, EndMarker)}).
 * A guest kernel that cannot power off (an x86 kernel without ACPI only halts) would otherwise
 * keep its VM running until the boot's timeout and lose results it has already delivered.
 *
 * @param file    the watched file; a missing file has no marker yet
 * @param markers texts of which any one, found in the file's last {@link #TAIL_BYTES}, ends the work
 * @param grace   how long the process may take to exit by itself after the marker
 */
public record EndMarker(Path file, List<String> markers, Duration grace) {

  /** Only the end of the file is read: the marker is among the last lines a process writes. */
  static final int TAIL_BYTES = 8192;

  public EndMarker {
    markers = List.copyOf(markers);
  }

  /** True when the file's tail holds a marker; false when it does not, or cannot be read yet. */
  public boolean seen() {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long length = f.length();
      int n = (int) Math.min(length, TAIL_BYTES);
      byte[] tail = new byte[n];
      f.seek(length - n);
      f.readFully(tail);
      String text = new String(tail, StandardCharsets.UTF_8);
      return markers.stream().anyMatch(text::contains);
    } catch (IOException e) {
      return false;
    }
  }
}
