package dev.abfleet.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Waiting in tests for something asynchronous to become true: polls, sooner at first (1 ms, then
 * doubling up to 100 ms), and fails with what was awaited and the last value seen. The one way
 * tests wait; a fixed sleep either wastes time or fails under load.
 */
public final class Eventually {
  private static final Duration FIRST = Duration.ofMillis(1);
  private static final Duration MOST = Duration.ofMillis(100);

  private Eventually() {}

  /** A value to look at; an exception means "not there yet" when {@link #until} is told so. */
  @FunctionalInterface
  public interface Probe<T> {
    T get() throws Exception;
  }

  /** Waits until {@code condition} holds. */
  public static void await(String what, Duration limit, BooleanSupplier condition) {
    until(what, limit, condition::getAsBoolean, Boolean::booleanValue);
  }

  /** The first value of {@code probe} that satisfies {@code done}; exceptions propagate. */
  public static <T> T until(String what, Duration limit, Probe<T> probe, Predicate<? super T> done) {
    return until(what, limit, probe, done, e -> false);
  }

  /**
   * The first value of {@code probe} that satisfies {@code done}. An exception {@code transient}
   * accepts (e.g. UNAVAILABLE while a server starts) counts as not yet; any other propagates.
   */
  public static <T> T until(String what, Duration limit, Probe<T> probe, Predicate<? super T> done,
      Predicate<? super Exception> transientFailure) {
    long deadline = System.nanoTime() + limit.toNanos();
    long pause = FIRST.toNanos();
    Object last = "nothing yet";
    while (true) {
      try {
        T value = probe.get();
        if (done.test(value)) {
          return value;
        }
        last = value;
      } catch (RuntimeException | Error e) {
        if (!(e instanceof RuntimeException r) || !transientFailure.test(r)) {
          throw e;
        }
        last = e;
      } catch (Exception e) {
        if (!transientFailure.test(e)) {
          throw new AssertionError("while waiting for " + what + ": " + e, e);
        }
        last = e;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(what + ": not within " + limit + "; last seen: " + last);
      }
      sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, MOST.toNanos());
    }
  }

  private static void sleep(long nanos) {
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting", e);
    }
  }
}
