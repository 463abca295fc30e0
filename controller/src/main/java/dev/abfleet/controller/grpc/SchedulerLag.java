package dev.abfleet.controller.grpc;

import dev.abfleet.controller.http.ControllerMetrics;
import dev.abfleet.controller.schedule.Scheduler;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * Whether the scheduler is behind, measured as a command feels it: a cheap question (GetQueue)
 * asked every {@link #PROBE_EVERY} waits behind everything in the scheduler's mailbox and, while
 * its journal writes, its stash. The scheduler is behind while the last answer took longer than
 * {@link #LIMIT}, or the question out now has waited longer than that. Reports from workers are
 * deferred meanwhile (ReportAck code RESOURCE_EXHAUSTED), so the stash stops growing instead of
 * overflowing. Thread-safe: one probe at a time writes, gRPC threads read.
 */
final class SchedulerLag {
  /** How often the scheduler is asked. */
  static final Duration PROBE_EVERY = Duration.ofMillis(500);
  /**
   * An answer slower than this means the scheduler is behind. Deferring is a last resort: a
   * deferred report waits on its worker, and if the worker's stream drops meanwhile the lease
   * is released and the boot is lost, so a busy scheduler (answers of 1-3 s under a connect
   * storm on 2 cores) is left alone. 5 s of backlog at a few thousand commands/s stays well
   * inside the 100,000-command stash (application.conf).
   */
  static final Duration LIMIT = Duration.ofSeconds(5);
  /** A question unanswered this long counts as answered now (and late); the next one goes out. */
  private static final Duration GIVE_UP = Duration.ofSeconds(30);

  private final LongSupplier nanoTime;
  private final long limitNanos;
  /** When the question out now was sent (nanoTime); 0 = none out. */
  private volatile long sentAt;
  private volatile long lastRoundTripNanos;

  SchedulerLag(Duration limit, LongSupplier nanoTime) {
    this.limitNanos = limit.toNanos();
    this.nanoTime = nanoTime;
  }

  /** Asks {@code scheduler} every {@link #PROBE_EVERY} for as long as {@code system} runs. */
  static SchedulerLag start(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler,
      ControllerMetrics metrics) {
    SchedulerLag lag = new SchedulerLag(LIMIT, System::nanoTime);
    metrics.schedulerLagSource(lag::seconds);
    system.scheduler().scheduleWithFixedDelay(PROBE_EVERY, PROBE_EVERY, () -> {
      if (lag.send()) {
        AskPattern.<Scheduler.Command, Scheduler.Queue>ask(scheduler, Scheduler.GetQueue::new, GIVE_UP,
            system.scheduler()).whenComplete((answer, failure) -> lag.answered());
      }
    }, system.executionContext());
    return lag;
  }

  /** Marks a question as sent; false when one is out already (it is not sent again). */
  boolean send() {
    if (sentAt != 0) {
      return false;
    }
    sentAt = Math.max(1, nanoTime.getAsLong());
    return true;
  }

  /** The question out was answered (or given up on) now. */
  void answered() {
    long sent = sentAt;
    if (sent != 0) {
      lastRoundTripNanos = nanoTime.getAsLong() - sent;
      sentAt = 0;
    }
  }

  /** The last answer's round trip, or the wait of the question out now when longer; in seconds. */
  double seconds() {
    long sent = sentAt;
    long waiting = sent == 0 ? 0 : nanoTime.getAsLong() - sent;
    return Math.max(lastRoundTripNanos, waiting) / 1e9;
  }

  /** True while the scheduler answers more slowly than the limit. */
  boolean behind() {
    long sent = sentAt;
    return lastRoundTripNanos > limitNanos || (sent != 0 && nanoTime.getAsLong() - sent > limitNanos);
  }
}
