package dev.abfleet.cli.build;

import dev.abfleet.worker.build.BuildListener;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;

/**
 * A build's progress on stderr: each phase on a line of its own, and while compiling, a count of
 * objects with an ETA from the last full build of the same tree. On a terminal the count is
 * redrawn in place; elsewhere (logs, CI) it is printed at most every {@link #PLAIN_EVERY}.
 */
public final class BuildProgress implements BuildListener {
  static final Duration PLAIN_EVERY = Duration.ofSeconds(15);

  private final String who;
  private final PrintStream err;
  private final boolean tty;
  private final Clock clock;
  private long compileStartMs = -1;
  private long lastPrintMs;
  private boolean redrawn;

  /** @param who names the build in each line, e.g. "build" or "arm 'slow'" */
  public BuildProgress(String who, PrintStream err, boolean tty, Clock clock) {
    this.who = who;
    this.err = err;
    this.tty = tty;
    this.clock = clock;
  }

  public BuildProgress(String who, PrintStream err) {
    this(who, err, System.console() != null, Clock.systemUTC());
  }

  @Override
  public void phase(String phase) {
    endLine();
    err.println(who + ": " + phase);
    if (phase.equals("compile")) {
      compileStartMs = clock.millis();
    }
  }

  @Override
  public void compiled(int objects, int expected) {
    long now = clock.millis();
    if (!tty && now - lastPrintMs < PLAIN_EVERY.toMillis()) {
      return;
    }
    lastPrintMs = now;
    String line = who + ": compiled " + objects + (expected > 0 ? " of ~" + expected : "") + " objects"
        + (compileStartMs < 0 ? "" : eta(objects, expected, now - compileStartMs));
    if (tty) {
      err.print("\r\033[K" + line);
      redrawn = true;
    } else {
      err.println(line);
    }
    err.flush();
  }

  /** Ends a line redrawn in place, so the next message starts on a line of its own. */
  public void endLine() {
    if (redrawn) {
      err.println();
      redrawn = false;
    }
  }

  /** ", ETA 2m10s" from the rate so far, once a tenth of the expected objects are done. */
  static String eta(int objects, int expected, long elapsedMs) {
    if (expected <= 0 || objects * 10 < expected || objects >= expected || elapsedMs <= 0) {
      return "";
    }
    long left = (long) ((expected - objects) * (elapsedMs / (double) objects) / 1000);
    return ", ETA " + (left >= 60 ? left / 60 + "m" + String.format("%02ds", left % 60) : left + "s");
  }
}
