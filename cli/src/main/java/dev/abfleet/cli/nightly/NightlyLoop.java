package dev.abfleet.cli.nightly;

import dev.abfleet.config.FleetConfig;
import java.time.Clock;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fires schedules at their cron times, one run at a time, with an injected clock and sleeper
 * so tests can drive time. A run that lasts past another fire time delays that run; fire times
 * that passed entirely while a run (or the process) was busy are skipped, as cron does.
 */
public final class NightlyLoop {
  /** Waits until the clock reaches a time. */
  @FunctionalInterface
  public interface Sleeper {
    void sleepUntil(Instant t) throws InterruptedException;
  }

  /** Runs one schedule that was due at a time. */
  @FunctionalInterface
  public interface Fire {
    void fire(FleetConfig.Schedule schedule, Instant due);
  }

  private final List<FleetConfig.Schedule> schedules;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Fire fire;

  public NightlyLoop(List<FleetConfig.Schedule> schedules, Clock clock, Sleeper sleeper, Fire fire) {
    if (schedules.isEmpty()) {
      throw new IllegalArgumentException("no schedules");
    }
    this.schedules = List.copyOf(schedules);
    this.clock = clock;
    this.sleeper = sleeper;
    this.fire = fire;
  }

  /**
   * Fires schedules until {@code maxFirings} runs have been made (Long.MAX_VALUE = forever) or
   * the thread is interrupted (the interrupt flag is kept).
   */
  public void run(long maxFirings) {
    Map<FleetConfig.Schedule, Instant> next = new LinkedHashMap<>();
    for (FleetConfig.Schedule s : schedules) {
      next.put(s, nextAfter(s, clock.instant()));
    }
    long fired = 0;
    while (fired < maxFirings) {
      Instant due = next.values().stream().min(Instant::compareTo).orElseThrow();
      try {
        sleeper.sleepUntil(due);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      List<FleetConfig.Schedule> dueNow = new ArrayList<>();
      next.forEach((s, t) -> {
        if (!t.isAfter(due)) {
          dueNow.add(s);
        }
      });
      for (FleetConfig.Schedule s : dueNow) {
        if (fired >= maxFirings) {
          return;
        }
        fire.fire(s, next.get(s));
        fired++;
        Instant after = clock.instant().isAfter(next.get(s)) ? clock.instant() : next.get(s);
        next.put(s, nextAfter(s, after));
      }
    }
  }

  private Instant nextAfter(FleetConfig.Schedule s, Instant t) {
    ZonedDateTime local = t.atZone(clock.getZone());
    return s.cron().next(local).orElseThrow(() ->
        new IllegalStateException("cron " + s.cron() + " never fires")).toInstant();
  }
}
