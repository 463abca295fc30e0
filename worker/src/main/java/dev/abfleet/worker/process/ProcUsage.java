package dev.abfleet.worker.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What a process on this host has used: CPU time (user + system, all its threads) and its
 * thread count, read from {@code /proc/PID/stat}.
 *
 * @param cpuMs user plus system CPU time in milliseconds
 * @param threads the most threads seen at once (a single read: the current count)
 */
public record ProcUsage(long cpuMs, int threads) {

  /** Nothing measured. */
  public static final ProcUsage NONE = new ProcUsage(0, 0);

  /** Linux reports times in USER_HZ ticks, 100 per second on every architecture it runs on. */
  private static final long MS_PER_TICK = 10;

  /** One read of {@code /proc/PID/stat}; empty when the process is gone or the file unreadable. */
  public static Optional<ProcUsage> read(long pid) {
    try {
      return parseStat(Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Parses a {@code /proc/PID/stat} line: the command name sits in parentheses and may hold
   * spaces, so fields are counted after the last ')': state is field 3, utime 14, stime 15,
   * num_threads 20 (proc(5)).
   */
  static Optional<ProcUsage> parseStat(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return Optional.empty();
    }
    String[] f = stat.substring(close + 1).trim().split("\\s+");
    if (f.length < 18) {
      return Optional.empty();
    }
    try {
      long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      return Optional.of(new ProcUsage(ticks * MS_PER_TICK, Integer.parseInt(f[17])));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** The later CPU time and the larger thread count of two reads of one process. */
  ProcUsage merge(ProcUsage later) {
    return new ProcUsage(Math.max(cpuMs, later.cpuMs), Math.max(threads, later.threads));
  }

  /** Starts sampling {@code pid} every {@code interval} on a daemon thread, until closed or the process is gone. */
  public static Sampler sample(long pid, Duration interval) {
    Sampler s = new Sampler(pid, interval);
    s.thread.start();
    return s;
  }

  /** A running sampler of one process. */
  public static final class Sampler implements AutoCloseable {
    private final long pid;
    private final long intervalMs;
    private final Thread thread;
    private ProcUsage usage = NONE; // guarded by this
    private volatile boolean closed;

    private Sampler(long pid, Duration interval) {
      this.pid = pid;
      this.intervalMs = Math.max(1, interval.toMillis());
      this.thread = new Thread(this::loop, "proc-usage-" + pid);
      thread.setDaemon(true);
    }

    private void loop() {
      while (!closed && take()) {
        try {
          Thread.sleep(intervalMs);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    /** One read folded in; false once the process is gone. */
    private boolean take() {
      Optional<ProcUsage> now = read(pid);
      now.ifPresent(u -> {
        synchronized (this) {
          usage = usage.merge(u);
        }
      });
      return now.isPresent();
    }

    /** What has been seen so far. */
    public synchronized ProcUsage usage() {
      return usage;
    }

    /** Takes a last sample (if the process is still there) and stops sampling. */
    @Override
    public void close() {
      if (!closed) {
        take();
        closed = true;
        thread.interrupt();
      }
    }
  }
}
