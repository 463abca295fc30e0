package dev.abfleet.worker.link;

import io.grpc.Status;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Reconnect delays: exponential with full jitter in [1 - jitter, 1 + jitter] of the nominal
 * delay, reset after a successful connect. Errors that will not fix themselves on a retry
 * (bad request, unknown method, auth) wait the maximum delay at once. Not thread-safe: the
 * link calls it from its own thread.
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private final double multiplier;
  private final double jitter;
  private final RandomGenerator random;
  private double nominalMillis;

  public Backoff(Duration initial, Duration max, double multiplier, double jitter, RandomGenerator random) {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs 0 < initial <= max, got " + initial + ", " + max);
    }
    if (multiplier < 1 || jitter < 0 || jitter >= 1) {
      throw new IllegalArgumentException("backoff needs multiplier >= 1 and 0 <= jitter < 1");
    }
    this.initial = initial;
    this.max = max;
    this.multiplier = multiplier;
    this.jitter = jitter;
    this.random = random;
    reset();
  }

  /**
   * 500 ms growing x1.6 to 30 s, +-90% jitter. When a controller drops thousands of streams at
   * once (a restart, a stall past the heartbeat timeout), their first reconnects spread evenly
   * over 50-950 ms instead of arriving in one 80 ms burst that stalls it again.
   */
  public static Backoff standard(RandomGenerator random) {
    return new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30), 1.6, 0.9, random);
  }

  /** The delay before the next attempt after a failure with this status. */
  public Duration next(Status.Code code) {
    if (isPermanent(code)) {
      nominalMillis = max.toMillis();
    }
    double base = nominalMillis;
    nominalMillis = Math.min(max.toMillis(), nominalMillis * multiplier);
    double factor = 1 - jitter + 2 * jitter * random.nextDouble();
    return Duration.ofMillis(Math.round(base * factor));
  }

  /** A backoff with the same delays and random source, and a state of its own. */
  public Backoff another() {
    return new Backoff(initial, max, multiplier, jitter, random);
  }

  /** Called once the controller has welcomed us. */
  public void reset() {
    nominalMillis = initial.toMillis();
  }

  /** Codes a retry cannot cure: the worker is misconfigured or talks to the wrong server. */
  static boolean isPermanent(Status.Code code) {
    return switch (code) {
      case INVALID_ARGUMENT, UNIMPLEMENTED, PERMISSION_DENIED, UNAUTHENTICATED, FAILED_PRECONDITION -> true;
      default -> false;
    };
  }
}
