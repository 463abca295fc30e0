package dev.abfleet.cli;

import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C while a command follows an experiment. The first one interrupts the following thread
 * (which then cancels the experiment and prints what was measured) instead of ending the JVM at
 * once; a second one ends it as Ctrl-C always does. Where the JVM does not let the signal be
 * handled (started with -Xrs), nothing changes: Ctrl-C ends the JVM and its shutdown hooks run.
 */
final class CtrlC implements AutoCloseable {
  /** The exit status of a process ended by SIGINT, as shells report it. */
  private static final int SIGINT_EXIT = 130;

  private final SignalHandler previous;

  private CtrlC(SignalHandler previous) {
    this.previous = previous;
  }

  /**
   * Until closed, the first Ctrl-C runs {@code onFirst} and interrupts {@code follower}; the
   * second exits with status 130.
   */
  static CtrlC interrupting(Thread follower, Runnable onFirst) {
    AtomicInteger presses = new AtomicInteger();
    SignalHandler handler = signal -> {
      if (presses.incrementAndGet() == 1) {
        onFirst.run();
        follower.interrupt();
      } else {
        Runtime.getRuntime().exit(SIGINT_EXIT);
      }
    };
    try {
      return new CtrlC(Signal.handle(new Signal("INT"), handler));
    } catch (IllegalArgumentException | UnsupportedOperationException notHandled) {
      return new CtrlC(null);
    }
  }

  @Override
  public void close() {
    if (previous != null) {
      Signal.handle(new Signal("INT"), previous);
    }
  }
}
