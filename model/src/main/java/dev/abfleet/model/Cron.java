package dev.abfleet.model;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A five-field UNIX cron expression (cron-utils' UNIX definition): minute, hour, day of month,
 * month (1-12 or JAN-DEC), day of week (0-7 or SUN-SAT, 0 and 7 both Sunday); each field a
 * value, a range, a step, or a list. Also {@code @hourly}, {@code @daily} (= {@code @midnight}),
 * {@code @weekly}, {@code @monthly}, {@code @yearly} (= {@code @annually}), expanded here.
 *
 * <p>Times are wall-clock times in the zone of the instant passed to {@link #next}. A time
 * skipped by a daylight-saving jump fires moved forward by the jump's length (02:30 becomes
 * 03:30 on a one-hour jump), so that the day's run still happens (cron-utils alone would skip it).
 */
public final class Cron {
  private static final CronParser PARSER =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
  private static final String FORM = "expected 5 fields: minute hour day-of-month month day-of-week,"
      + " e.g. \"30 2 * * *\" for 02:30 every day";
  private static final List<String> FIELDS = List.of("minute", "hour", "day-of-month", "month", "day-of-week");
  private static final List<Integer> MAX = List.of(59, 23, 31, 12, 7);
  private static final List<String> RANGES = List.of("0 to 59", "0 to 23", "1 to 31", "1 to 12 (or JAN-DEC)",
      "0 to 7 (or SUN-SAT)");

  private final String text;
  private final ExecutionTime times;

  /** A parsed expression, or the reason it is not one (with the fix). */
  public record Parsed(Cron cron, String error) {
    public boolean ok() {
      return cron != null;
    }
  }

  private Cron(String text, ExecutionTime times) {
    this.text = text;
    this.times = times;
  }

  /** Parses {@code text}; never throws. An error is one line: control characters are shown as '?'. */
  public static Parsed parse(String text) {
    Parsed p = parseTrimmed(text == null ? "" : text.trim());
    return p.error() == null ? p : new Parsed(null, p.error().replaceAll("\\p{Cntrl}", "?"));
  }

  private static Parsed parseTrimmed(String t) {
    String expanded = switch (t.toLowerCase(Locale.ROOT)) {
      case "@hourly" -> "0 * * * *";
      case "@daily", "@midnight" -> "0 0 * * *";
      case "@weekly" -> "0 0 * * 0";
      case "@monthly" -> "0 0 1 * *";
      case "@yearly", "@annually" -> "0 0 1 1 *";
      default -> t;
    };
    if (expanded.startsWith("@")) {
      return new Parsed(null, "cron '" + t + "': unknown macro; expected @hourly, @daily, @weekly,"
          + " @monthly, @yearly or " + FORM);
    }
    String[] fields = expanded.isEmpty() ? new String[0] : expanded.split("\\s+");
    if (fields.length != 5) {
      return new Parsed(null, "cron '" + t + "' has " + fields.length + " fields; " + FORM);
    }
    for (int i = 0; i < 5; i++) {
      Optional<String> bad = fieldProblem(fields, i);
      if (bad.isPresent()) {
        return new Parsed(null, "cron '" + t + "': " + bad.get());
      }
    }
    Cron cron;
    try {
      cron = new Cron(t, ExecutionTime.forCron(PARSER.parse(String.join(" ", fields)).validate()));
    } catch (RuntimeException e) {
      return new Parsed(null, "cron '" + t + "': " + e.getMessage() + "; " + FORM);
    }
    if (cron.next(ZonedDateTime.parse("2000-01-01T00:00Z")).isEmpty()) {
      return new Parsed(null, "cron '" + t + "' never fires (no such date); pick a day that exists"
          + " in the month, e.g. 28 instead of 30 for February");
    }
    return new Parsed(cron, null);
  }

  /** Field {@code i} on its own (the others '*'), so that an error names the field at fault. */
  private static Optional<String> fieldProblem(String[] fields, int i) {
    String[] alone = {"*", "*", "*", "*", "*"};
    alone[i] = fields[i];
    try {
      PARSER.parse(String.join(" ", alone)).validate();
      return Optional.empty();
    } catch (RuntimeException e) {
      // cron-utils throws IllegalArgumentException mostly, but not only, for bad input.
      String why = e.getMessage() == null ? "" : e.getMessage();
      var backwards = java.util.regex.Pattern.compile("Invalid range! \\[(\\d+),(\\d+)]").matcher(why);
      if (backwards.find()) {
        return Optional.of(FIELDS.get(i) + " range '" + fields[i] + "' runs backwards; write it low-high, e.g. "
            + backwards.group(2) + "-" + backwards.group(1));
      }
      int slash = fields[i].indexOf('/');
      if (why.contains("Period") && slash >= 0) {
        return Optional.of(FIELDS.get(i) + " step '" + fields[i].substring(slash + 1) + "' in '" + fields[i]
            + "' must be a whole number from 1 to " + MAX.get(i));
      }
      return Optional.of(FIELDS.get(i) + " '" + fields[i] + "' is not a value from " + RANGES.get(i)
          + ", a range A-B, a step */S, or a list A,B");
    }
  }

  /**
   * The first time strictly after {@code after} (to the minute) that matches, in after's zone;
   * empty only for an expression that never fires.
   */
  public Optional<ZonedDateTime> next(ZonedDateTime after) {
    ZonedDateTime from = after.truncatedTo(ChronoUnit.MINUTES);
    // cron-utils answers strictly after a whole minute, hence strictly after {@code after} too.
    Optional<ZonedDateTime> next = times.nextExecution(from);
    return skippedByJump(after, next).or(() -> next);
  }

  /**
   * A wall-clock time skipped by a daylight-saving jump between {@code after} and {@code next}
   * that matches, moved forward by the jump's length.
   */
  private Optional<ZonedDateTime> skippedByJump(ZonedDateTime after, Optional<ZonedDateTime> next) {
    ZoneOffsetTransition jump = after.getZone().getRules().nextTransition(after.toInstant());
    if (jump == null || !jump.isGap() || (next.isPresent() && !jump.getInstant().isBefore(next.get().toInstant()))) {
      return Optional.empty();
    }
    for (LocalDateTime t = jump.getDateTimeBefore(); t.isBefore(jump.getDateTimeAfter()); t = t.plusMinutes(1)) {
      if (times.isMatch(t.atZone(ZoneOffset.UTC))) {
        return Optional.of(ZonedDateTime.of(t, after.getZone()));
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return text;
  }
}
