package dev.abfleet.controller.nightly;

import dev.abfleet.model.Cron;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class CronTest {
  private static final ZoneId UTC = ZoneId.of("UTC");

  private static Cron cron(String text) {
    Cron.Parsed p = Cron.parse(text);
    assertThat(p.error()).isNull();
    return p.cron();
  }

  private static ZonedDateTime at(String local) {
    return java.time.LocalDateTime.parse(local).atZone(UTC);
  }

  private static String next(String cron, String after) {
    return cron(cron).next(at(after)).orElseThrow().toLocalDateTime().toString();
  }

  @Test
  void dailyAtTwoThirtyFiresTheSameDayBeforeAndTheNextDayAfter() {
    assertThat(next("30 2 * * *", "2026-03-10T01:00")).isEqualTo("2026-03-10T02:30");
    assertThat(next("30 2 * * *", "2026-03-10T02:30")).isEqualTo("2026-03-11T02:30");
  }

  @Test
  void nextIsStrictlyAfterEvenWithSeconds() {
    assertThat(cron("* * * * *").next(at("2026-03-10T01:00:30")).orElseThrow().toLocalDateTime())
        .hasToString("2026-03-10T01:01");
  }

  @Test
  void stepsRangesAndListsCombine() {
    assertThat(next("*/15 * * * *", "2026-03-10T01:16")).isEqualTo("2026-03-10T01:30");
    assertThat(next("0 9-17/4 * * *", "2026-03-10T09:00")).isEqualTo("2026-03-10T13:00");
    assertThat(next("5,45 * * * *", "2026-03-10T01:06")).isEqualTo("2026-03-10T01:45");
    assertThat(next("10/20 * * * *", "2026-03-10T01:31")).isEqualTo("2026-03-10T01:50");
  }

  @Test
  void namedDaysAndMonthsWork() {
    // 2026-03-10 is a Tuesday.
    assertThat(next("0 3 * * FRI", "2026-03-10T00:00")).isEqualTo("2026-03-13T03:00");
    assertThat(next("0 0 1 jun *", "2026-03-10T00:00")).isEqualTo("2026-06-01T00:00");
    assertThat(next("0 0 * * 7", "2026-03-10T00:00")).isEqualTo("2026-03-15T00:00");
  }

  @Test
  void restrictedDayOfMonthAndWeekMatchEither() {
    // The 20th or any Monday: Monday 2026-03-16 comes first.
    assertThat(next("0 0 20 * MON", "2026-03-10T00:00")).isEqualTo("2026-03-16T00:00");
  }

  @Test
  void leapDayIsFound() {
    assertThat(next("0 0 29 2 *", "2026-03-01T00:00")).isEqualTo("2028-02-29T00:00");
  }

  @Test
  void macrosExpand() {
    assertThat(next("@daily", "2026-03-10T05:00")).isEqualTo("2026-03-11T00:00");
    assertThat(next("@hourly", "2026-03-10T05:00")).isEqualTo("2026-03-10T06:00");
    assertThat(next("@weekly", "2026-03-10T05:00")).isEqualTo("2026-03-15T00:00");
  }

  @Test
  void skippedDaylightSavingTimeFiresAfterTheJump() {
    ZoneId berlin = ZoneId.of("Europe/Berlin");
    ZonedDateTime before = java.time.LocalDateTime.parse("2026-03-29T01:00").atZone(berlin);
    ZonedDateTime fired = cron("30 2 * * *").next(before).orElseThrow();
    assertThat(fired.toLocalDateTime()).hasToString("2026-03-29T03:30");
    assertThat(fired).isAfter(before);
  }

  @Test
  void rejectsWrongFieldCount() {
    assertThat(Cron.parse("0 2 * *").error()).contains("has 4 fields; expected 5 fields");
  }

  @Test
  void rejectsOutOfRangeValue() {
    assertThat(Cron.parse("60 * * * *").error())
        .isEqualTo("cron '60 * * * *': minute '60' is not a value from 0 to 59, a range A-B, a step */S, or a list A,B");
  }

  @Test
  void rejectsBackwardsRangeWithTheFix() {
    assertThat(Cron.parse("0 5-2 * * *").error()).endsWith("hour range '5-2' runs backwards; write it low-high, e.g. 2-5");
  }

  @Test
  void rejectsZeroStep() {
    assertThat(Cron.parse("*/0 * * * *").error()).contains("minute step '0'");
  }

  @Test
  void rejectsADateThatNeverExists() {
    assertThat(Cron.parse("0 0 30 2 *").error()).contains("never fires");
  }

  @Test
  void rejectsUnknownMacroAndNames() {
    assertThat(Cron.parse("@nightly").error()).contains("unknown macro");
    assertThat(Cron.parse("0 0 * * FUN").error()).contains("day-of-week 'FUN' is not a value from 0 to 7 (or SUN-SAT)");
  }
}
