package dev.abfleet.controller.grpc;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run the gRPC server's call handlers. grpc-java's default is a cached pool
 * that starts a thread for every handler running at once: 10,000 worker streams delivering
 * heartbeats together start thousands of threads on a machine with a few cores. A fixed pool
 * sized from the cores queues them instead. Handlers mostly hand a message to an actor; a few
 * block (artifact chunks written to disk, API tokens read from the database), hence several
 * threads per core.
 */
public final class ServerExecutor {
  /** Threads per core. */
  static final int PER_CORE = 4;
  /** At least this many, so that a few blocking handlers on a small machine leave room. */
  static final int MIN_THREADS = 8;
  /** At most this many: past it the threads only contend for the cores. */
  static final int MAX_THREADS = 64;

  private ServerExecutor() {}

  /** Threads for {@code cores} cores: {@value #PER_CORE} per core, within [8, 64]. */
  static int threadsFor(int cores) {
    if (cores < 1) {
      throw new IllegalArgumentException("cores " + cores + ": expected at least 1");
    }
    return Math.max(MIN_THREADS, Math.min(MAX_THREADS, PER_CORE * cores));
  }

  /** A pool of {@link #threadsFor} this machine's cores, of daemon threads named grpc-server-N. */
  public static ExecutorService start() {
    int threads = threadsFor(Runtime.getRuntime().availableProcessors());
    AtomicInteger n = new AtomicInteger();
    return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "grpc-server-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }
}
