package dev.abfleet.controller.grpc;

import java.util.function.LongSupplier;

/**
 * A token bucket: holds up to {@code burst} tokens, refilled at {@code perSecond}; each call
 * takes one. Thread-safe. Time comes from an injected nanosecond clock so tests need no sleeps.
 */
final class TokenBucket {
  private final double perSecond;
  private final double burst;
  private final LongSupplier nanoTime;
  private double tokens;
  private long lastNanos;

  TokenBucket(double perSecond, int burst, LongSupplier nanoTime) {
    if (perSecond <= 0 || burst < 1) {
      throw new IllegalArgumentException("token bucket of " + perSecond + "/s, burst " + burst
          + ": expected a positive rate and a burst of at least 1");
    }
    this.perSecond = perSecond;
    this.burst = burst;
    this.nanoTime = nanoTime;
    this.tokens = burst;
    this.lastNanos = nanoTime.getAsLong();
  }

  /** Takes a token if there is one; false = over the limit. */
  synchronized boolean tryTake() {
    refill();
    if (tokens < 1) {
      return false;
    }
    tokens -= 1;
    return true;
  }

  /** True when the bucket is full again: its client has been quiet (it may be forgotten). */
  synchronized boolean idle() {
    refill();
    return tokens >= burst;
  }

  private void refill() {
    long now = nanoTime.getAsLong();
    tokens = Math.min(burst, tokens + (now - lastNanos) * perSecond / 1e9);
    lastNanos = now;
  }
}
