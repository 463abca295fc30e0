package dev.abfleet.testkit;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UTC clock the test moves by setting {@link #now}. It counts how often it was read, so a test
 * can wait for a component that looks at the clock on a timer to have looked again (a tick is a
 * fact; a sleep only hopes for one).
 */
public final class SteppedClock extends Clock {
  public volatile Instant now;
  private final AtomicLong reads = new AtomicLong();

  public SteppedClock(Instant now) {
    this.now = now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    reads.incrementAndGet();
    return now;
  }

  /** How many times {@link #instant} (or {@link #millis}) was called since construction. */
  public long reads() {
    return reads.get();
  }
}
