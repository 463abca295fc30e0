package dev.abfleet.worker.host;

import java.util.OptionalDouble;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Waits, bounded, for a quiet host before a measured boot: polls the host's CPU "some" avg10
 * (PSI) about once a second until it is at or below the threshold or the wait reaches its bound,
 * then lets the boot start either way (the boot's own window decides whether it was interfered).
 * A host without PSI is never waited for.
 */
public final class QuietWait {
  /** How often the pressure is read while waiting, ms. */
  static final long POLL_MS = 1_000;

  /** Sleeps; {@link Thread#sleep} on a host, a fake clock's advance in tests. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  private final Supplier<OptionalDouble> cpuSomeAvg10;
  private final LongSupplier clock;
  private final Sleeper sleeper;

  /**
   * @param cpuSomeAvg10 the host's CPU some avg10 now, percent; empty = no PSI
   * @param clock monotonic ms
   */
  public QuietWait(Supplier<OptionalDouble> cpuSomeAvg10, LongSupplier clock, Sleeper sleeper) {
    this.cpuSomeAvg10 = cpuSomeAvg10;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** Reads {@code sampler}'s /proc on the real clock, sleeping the thread. */
  public static QuietWait of(PressureSampler sampler) {
    return new QuietWait(() -> {
      PressureSnapshot s = sampler.sample();
      return s.cpu() == null ? OptionalDouble.empty() : OptionalDouble.of(s.cpu().avg10());
    }, () -> System.nanoTime() / 1_000_000, Thread::sleep);
  }

  /**
   * Waits until CPU some avg10 is at or below {@code cpuSomePct} percent, at most
   * {@code maxWaitMs}; returns how long it waited in ms (0 = quiet at once or no PSI).
   *
   * @throws InterruptedException when the block is cancelled while waiting
   */
  public long await(double cpuSomePct, long maxWaitMs) throws InterruptedException {
    long start = clock.getAsLong();
    long waited = 0;
    while (true) {
      OptionalDouble now = cpuSomeAvg10.get();
      if (now.isEmpty() || now.getAsDouble() <= cpuSomePct || waited >= maxWaitMs) {
        return waited;
      }
      sleeper.sleep(Math.min(POLL_MS, maxWaitMs - waited));
      waited = clock.getAsLong() - start;
    }
  }
}
