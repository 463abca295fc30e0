package dev.abfleet.worker.host;

import java.util.OptionalDouble;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Waits, bounded, for a quiet host before a measured boot: about once a second reads how busy
 * other processes keep the host until that is at or below the threshold or the wait reaches its
 * bound, then lets the boot start either way (the boot's own window decides whether it was
 * interfered). On a real host the reading is other processes' share of the host's CPU time since
 * the last reading (not the worker's, not its VMs': the previous boot's pressure, still in PSI's
 * 10 s average, is no reason to wait); where /proc/stat is not readable, the CPU "some" avg10
 * (PSI). A host with neither is never waited for.
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

  /** The first reading's interval, ms: other processes' share needs two samples. */
  static final long FIRST_INTERVAL_MS = 250;

  /** Reads {@code sampler}'s /proc on the real clock, sleeping the thread. */
  public static QuietWait of(PressureSampler sampler) {
    PressureSnapshot[] last = {null};
    return new QuietWait(() -> {
      PressureSnapshot before = last[0];
      if (before == null) {
        before = sampler.sample();
        try {
          Thread.sleep(FIRST_INTERVAL_MS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return OptionalDouble.empty();
        }
      }
      PressureSnapshot now = sampler.sample();
      last[0] = now;
      return busy(before, now);
    }, () -> System.nanoTime() / 1_000_000, Thread::sleep);
  }

  /**
   * Other processes' share of the host's CPU time between the snapshots, percent; without the
   * CPU times, the CPU "some" avg10 at {@code now}; empty when neither was read.
   */
  static OptionalDouble busy(PressureSnapshot before, PressureSnapshot now) {
    long wallMs = now.atMs() - before.atMs();
    if (before.busyTicks() >= 0 && now.busyTicks() >= 0 && before.workerTicks() >= 0 && now.workerTicks() >= 0
        && now.cpus() > 0 && wallMs > 0) {
      long others = Math.max(0, (now.busyTicks() - before.busyTicks()) - (now.workerTicks() - before.workerTicks()));
      return OptionalDouble.of(100.0 * others * PressureSampler.MS_PER_TICK / (wallMs * (double) now.cpus()));
    }
    return now.cpu() == null ? OptionalDouble.empty() : OptionalDouble.of(now.cpu().avg10());
  }

  /**
   * Waits until the reading is at or below {@code cpuSomePct} percent, at most
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
