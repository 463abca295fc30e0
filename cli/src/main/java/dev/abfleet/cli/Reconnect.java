package dev.abfleet.cli;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Rides out a controller that is away for a while (a restart, a failover to another node): a
 * call that fails with UNAVAILABLE or DEADLINE_EXCEEDED is retried with jittered exponential
 * backoff until the controller answers again, for at most {@code limit} since it was last
 * reached. Stderr says so once when the controller goes away and once when it is back; past the
 * limit the call ends in {@link ControllerUnreachable}, an infrastructure failure (exit 3, never
 * the gate's 1).
 *
 * <p>A controller this command has not reached yet and whose address refuses the connection is
 * not away but not there (not started, or a wrong --controller): that ends the first call at
 * once, with the fix, instead of after the limit.
 *
 * <p>Thread-safe: one client's calls on several threads (the fleet bench watches 100
 * experiments through one) share the away time; a wait sleeps outside the lock.
 */
public final class Reconnect {
  /** How long a client waits for a controller that went away before it gives up. */
  public static final Duration DEFAULT_LIMIT = Duration.ofMinutes(10);
  static final long FIRST_DELAY_MS = 250;
  static final long MAX_DELAY_MS = 5_000;

  // The targets a call of the running command has reached. Per command, not per client: a
  // command that opens a new client per step (git bisect run) still rides out a restart between
  // steps. Main.run empties it before and after every command.
  private static final Set<String> REACHED = ConcurrentHashMap.newKeySet();

  /** Sleeps; tests pass one that advances a fake clock. */
  public interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  /** The controller did not answer within the limit, or refused the first connection. */
  public static final class ControllerUnreachable extends RuntimeException {
    ControllerUnreachable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final String target;
  private final Duration limit;
  private final PrintStream err;
  private final LongSupplier nanoClock;
  private final Sleeper sleeper;
  private final Random random;
  private long awaySinceNanos = -1;
  private long delayMs = FIRST_DELAY_MS;

  public Reconnect(String target, Duration limit, PrintStream err, LongSupplier nanoClock,
      Sleeper sleeper, Random random) {
    this.target = target;
    this.limit = limit;
    this.err = err;
    this.nanoClock = nanoClock;
    this.sleeper = sleeper;
    this.random = random;
  }

  /** Real time, {@link #DEFAULT_LIMIT}, messages on stderr. */
  public static Reconnect standard(String target) {
    return standard(target, System.err);
  }

  /** Real time, {@link #DEFAULT_LIMIT}, messages on {@code err} (a command's own stderr). */
  public static Reconnect standard(String target, PrintStream err) {
    return new Reconnect(target, DEFAULT_LIMIT, err, System::nanoTime, Thread::sleep, new Random());
  }

  /** True for the failures a restart or a network blip produces: worth a retry. */
  public static boolean transientFailure(StatusRuntimeException e) {
    Status.Code c = e.getStatus().getCode();
    return c == Status.Code.UNAVAILABLE || c == Status.Code.DEADLINE_EXCEEDED;
  }

  /**
   * True when a server stream broke for a reason a restart produces: a transient failure, or
   * CANCELLED without this thread being interrupted. A controller that stops cleanly cancels the
   * streams it serves before it goes away, and a client cancels its own stream only when its
   * thread is interrupted (gRPC then keeps the interrupt flag set). Unary calls are not
   * retried on CANCELLED: there it can also mean a refused request.
   */
  public static boolean streamBroken(StatusRuntimeException e) {
    return transientFailure(e) || (e.getStatus().getCode() == Status.Code.CANCELLED
        && !Thread.currentThread().isInterrupted());
  }

  /** Runs {@code call}, retrying it while the controller is away. */
  public <T> T call(Supplier<T> call) {
    while (true) {
      try {
        T result = call.get();
        reached();
        return result;
      } catch (StatusRuntimeException e) {
        if (!transientFailure(e)) {
          throw e;
        }
        backOff(e);
      }
    }
  }

  /**
   * The connection was refused: nothing listens at the address (TCP RST), as opposed to a
   * controller that is slow, restarting behind a proxy, or behind a network that drops packets.
   */
  public static boolean refused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException && t.getMessage() != null
          && t.getMessage().toLowerCase(Locale.ROOT).contains("connection refused")) {
        return true;
      }
    }
    return false;
  }

  /** The failure of a command whose controller at {@code target} refused the connection. */
  public static ControllerUnreachable refusedAt(String target, Throwable cause) {
    return new ControllerUnreachable("cannot reach the controller at " + target
        + " (connection refused): is `abfleet controller` running there? (--controller HOST:PORT"
        + " to point elsewhere)", cause);
  }

  /** Forgets which controllers were reached: each command starts with none. */
  static void forgetReached() {
    REACHED.clear();
  }

  /** The controller answered: a later failure starts a new wait with a new limit. */
  public synchronized void reached() {
    REACHED.add(target);
    if (awaySinceNanos >= 0) {
      long awayS = Duration.ofNanos(nanoClock.getAsLong() - awaySinceNanos).toSeconds();
      err.println("abfleet: controller " + target + " is back after " + awayS + " s");
    }
    awaySinceNanos = -1;
    delayMs = FIRST_DELAY_MS;
  }

  /**
   * Waits before the next try after {@code e}; throws {@link ControllerUnreachable} at once when
   * the connection was refused by a controller this command never reached, once the
   * controller has been away for longer than the limit, and the interrupt's
   * {@link ControllerUnreachable} (flag kept) when the wait is interrupted.
   */
  public void backOff(StatusRuntimeException e) {
    if (refused(e) && !REACHED.contains(target)) {
      throw refusedAt(target, e);
    }
    long jittered;
    synchronized (this) {
      // Read and written under the lock: another thread's reached() resets the away time
      // (-1), and a check against a reset time would see the controller away since boot.
      long now = nanoClock.getAsLong();
      if (awaySinceNanos < 0) {
        awaySinceNanos = now;
        err.println("abfleet: controller " + target + " unavailable (" + describe(e)
            + "); retrying for up to " + limit.toMinutes() + " min");
      }
      if (now - awaySinceNanos >= limit.toNanos()) {
        throw new ControllerUnreachable("controller " + target + " unavailable for "
            + limit.toMinutes() + " min (" + describe(e) + "); the experiment may still be"
            + " running there: follow it again once the controller is back", e);
      }
      jittered = (long) (delayMs * (0.8 + 0.4 * random.nextDouble()));
      delayMs = Math.min(MAX_DELAY_MS, delayMs * 2);
    }
    try {
      sleeper.sleep(jittered);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new ControllerUnreachable("interrupted while waiting for controller " + target, ie);
    }
  }

  private static String describe(StatusRuntimeException e) {
    String d = e.getStatus().getDescription();
    return e.getStatus().getCode() + (d == null || d.isEmpty() ? "" : ": " + d);
  }
}
