package dev.abfleet.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * The width of this process's terminal in columns, read with {@code stty size} on /dev/tty and
 * read again after the terminal is resized (SIGWINCH). Without a terminal, or where stty cannot
 * say, {@code $COLUMNS}, else 80.
 */
final class TerminalWidth {
  private static final int FALLBACK = 80;
  private static final AtomicBoolean STALE = new AtomicBoolean(true);
  private static volatile int columns = FALLBACK;

  static {
    try {
      Signal.handle(new Signal("WINCH"), signal -> STALE.set(true));
    } catch (IllegalArgumentException | UnsupportedOperationException notHere) {
      // No resize signal here (not a Unix JVM): the width is read once.
    }
  }

  private TerminalWidth() {}

  static int columns() {
    if (STALE.compareAndSet(true, false)) {
      columns = read();
    }
    return columns;
  }

  private static int read() {
    File tty = new File("/dev/tty");
    if (tty.canRead()) {
      try {
        Process p = new ProcessBuilder("stty", "size").redirectInput(tty)
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0) {
          String[] rowsCols = out.split("\\s+");
          int cols = rowsCols.length == 2 ? Integer.parseInt(rowsCols[1]) : 0;
          if (cols > 0) {
            return cols;
          }
        }
      } catch (IOException | NumberFormatException e) {
        // Fall back on $COLUMNS.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      int cols = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", ""));
      return cols > 0 ? cols : FALLBACK;
    } catch (NumberFormatException e) {
      return FALLBACK;
    }
  }
}
