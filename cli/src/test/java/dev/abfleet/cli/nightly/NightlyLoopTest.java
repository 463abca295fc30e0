package dev.abfleet.cli.nightly;

import dev.abfleet.config.Cron;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.config.FleetConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NightlyLoopTest {
  /** A clock the test moves; sleeping moves it to the wake-up time. */
  static final class FakeClock extends Clock {
    Instant now;

    FakeClock(String start) {
      now = Instant.parse(start);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  static FleetConfig.Schedule schedule(String name, String cron) {
    return new FleetConfig.Schedule(name, Cron.parse(cron).cron(), null,
        new FleetConfig.Candidate("path", "/k"), new FleetConfig.Baseline("pinned", "/b"), 4,
        new FleetConfig.Hosts("sim", "", Map.of()), 1);
  }

  @Test
  void firesEachScheduleAtItsCronTimes() {
    FakeClock clock = new FakeClock("2026-03-10T00:00:00Z");
    List<String> fired = new ArrayList<>();
    new NightlyLoop(List.of(schedule("a", "30 2 * * *"), schedule("b", "0 */12 * * *")), clock,
        t -> clock.now = t, (s, due) -> fired.add(s.name() + "@" + due)).run(5);
    assertThat(fired).containsExactly("a@2026-03-10T02:30:00Z", "b@2026-03-10T12:00:00Z",
        "b@2026-03-11T00:00:00Z", "a@2026-03-11T02:30:00Z", "b@2026-03-11T12:00:00Z");
  }

  @Test
  void aLongRunSkipsFireTimesThatPassedMeanwhile() {
    FakeClock clock = new FakeClock("2026-03-10T00:00:00Z");
    List<Instant> fired = new ArrayList<>();
    new NightlyLoop(List.of(schedule("a", "*/10 * * * *")), clock, t -> clock.now = t, (s, due) -> {
      fired.add(due);
      clock.now = clock.now.plus(Duration.ofMinutes(25));
    }).run(3);
    assertThat(fired).containsExactly(Instant.parse("2026-03-10T00:10:00Z"),
        Instant.parse("2026-03-10T00:40:00Z"), Instant.parse("2026-03-10T01:10:00Z"));
  }

  @Test
  void neverFiresBeforeItsTime() {
    FakeClock clock = new FakeClock("2026-03-10T02:29:59Z");
    List<Instant> sleptUntil = new ArrayList<>();
    List<Instant> firedAt = new ArrayList<>();
    new NightlyLoop(List.of(schedule("a", "30 2 * * *")), clock, t -> {
      sleptUntil.add(t);
      clock.now = t;
    }, (s, due) -> firedAt.add(clock.instant())).run(1);
    assertThat(sleptUntil).containsExactly(Instant.parse("2026-03-10T02:30:00Z"));
    assertThat(firedAt).containsExactly(Instant.parse("2026-03-10T02:30:00Z"));
  }
}
