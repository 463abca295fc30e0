package dev.abfleet.config;

import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A five-field cron expression: minute (0-59), hour (0-23), day of month (1-31), month (1-12
 * or JAN-DEC), day of week (0-7 or SUN-SAT, 0 and 7 both Sunday). Each field is {@code *}, a
 * value, a range {@code A-B}, a step {@code * /S} or {@code A-B/S} (written without the space),
 * or a comma-separated list of these. As in Vixie cron, when both day fields are restricted a
 * day matches if either does. Also {@code @hourly}, {@code @daily} (= {@code @midnight}),
 * {@code @weekly}, {@code @monthly}, {@code @yearly} (= {@code @annually}).
 *
 * <p>Times are wall-clock times in the zone of the instant passed to {@link #next}; a time
 * skipped by a daylight-saving jump fires at the first instant after the jump.
 */
public final class Cron {
  private static final List<String> MONTHS =
      List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
  private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
  private static final String FORM = "expected 5 fields: minute hour day-of-month month day-of-week,"
      + " e.g. \"30 2 * * *\" for 02:30 every day";
  /** How far {@link #next} looks; covers leap days (Feb 29 recurs within 8 years). */
  private static final int HORIZON_YEARS = 9;

  private final String text;
  private final BitSet minutes;
  private final BitSet hours;
  private final BitSet daysOfMonth;
  private final BitSet months;
  private final BitSet daysOfWeek;
  private final boolean domRestricted;
  private final boolean dowRestricted;

  /** A parsed expression, or the reason it is not one (with the fix). */
  public record Parsed(Cron cron, String error) {
    public boolean ok() {
      return cron != null;
    }
  }

  private Cron(String text, BitSet[] f, boolean domRestricted, boolean dowRestricted) {
    this.text = text;
    this.minutes = f[0];
    this.hours = f[1];
    this.daysOfMonth = f[2];
    this.months = f[3];
    this.daysOfWeek = f[4];
    this.domRestricted = domRestricted;
    this.dowRestricted = dowRestricted;
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
    Field[] spec = {
      new Field("minute", 0, 59, List.of()), new Field("hour", 0, 23, List.of()),
      new Field("day-of-month", 1, 31, List.of()), new Field("month", 1, 12, MONTHS),
      new Field("day-of-week", 0, 7, DAYS)
    };
    BitSet[] sets = new BitSet[5];
    for (int i = 0; i < 5; i++) {
      FieldParse fp = spec[i].parse(fields[i]);
      if (fp.error() != null) {
        return new Parsed(null, "cron '" + t + "': " + fp.error());
      }
      sets[i] = fp.bits();
    }
    if (sets[4].get(7)) {
      sets[4].clear(7);
      sets[4].set(0);
    }
    Cron cron = new Cron(t, sets, !fields[2].equals("*"), !fields[4].equals("*"));
    if (cron.next(ZonedDateTime.parse("2000-01-01T00:00Z")).isEmpty()) {
      return new Parsed(null, "cron '" + t + "' never fires (no such date); pick a day that exists"
          + " in the month, e.g. 28 instead of 30 for February");
    }
    return new Parsed(cron, null);
  }

  /**
   * The first time strictly after {@code after} (to the minute) that matches, in after's zone;
   * empty only for an expression that never fires.
   */
  public Optional<ZonedDateTime> next(ZonedDateTime after) {
    LocalDateTime start = after.toLocalDateTime().truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
    LocalDateTime t = start;
    LocalDateTime end = start.plusYears(HORIZON_YEARS);
    while (t.isBefore(end)) {
      if (!months.get(t.getMonthValue())) {
        t = t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS).plusMonths(1);
      } else if (!dayMatches(t)) {
        t = t.truncatedTo(ChronoUnit.DAYS).plusDays(1);
      } else if (!hours.get(t.getHour())) {
        t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
      } else if (!minutes.get(t.getMinute())) {
        t = t.plusMinutes(1);
      } else {
        ZonedDateTime z = ZonedDateTime.ofLocal(t, after.getZone(), after.getOffset());
        if (z.isAfter(after)) {
          return Optional.of(z);
        }
        t = t.plusMinutes(1);
      }
    }
    return Optional.empty();
  }

  private boolean dayMatches(LocalDateTime t) {
    boolean dom = daysOfMonth.get(t.getDayOfMonth());
    boolean dow = daysOfWeek.get(t.getDayOfWeek().getValue() % 7);
    if (domRestricted && dowRestricted) {
      return dom || dow;
    }
    return dom && dow;
  }

  @Override
  public String toString() {
    return text;
  }

  private record FieldParse(BitSet bits, String error) {}

  private record Field(String name, int min, int max, List<String> names) {
    FieldParse parse(String text) {
      BitSet bits = new BitSet(max + 1);
      for (String part : text.split(",", -1)) {
        String error = part(part, bits);
        if (error != null) {
          return new FieldParse(null, error);
        }
      }
      return new FieldParse(bits, null);
    }

    private String part(String part, BitSet bits) {
      String range = part;
      int step = 1;
      int slash = part.indexOf('/');
      if (slash >= 0) {
        range = part.substring(0, slash);
        Integer s = number(part.substring(slash + 1));
        if (s == null || s < 1 || s > max) {
          return name + " step '" + part.substring(slash + 1) + "' in '" + part
              + "' must be a whole number from 1 to " + max;
        }
        step = s;
      }
      int lo;
      int hi;
      if (range.equals("*")) {
        lo = min;
        hi = max;
      } else {
        int dash = range.indexOf('-', 1);
        Integer a = value(dash < 0 ? range : range.substring(0, dash));
        Integer b = dash < 0 ? a : value(range.substring(dash + 1));
        if (a == null || b == null) {
          return name + " '" + part + "' is not a value from " + min + " to " + max
              + (names.isEmpty() ? "" : " (or " + names.get(0) + "-" + names.get(names.size() - 1) + ")")
              + ", a range A-B, a step */S, or a list A,B";
        }
        if (a > b) {
          return name + " range '" + range + "' runs backwards; write it low-high, e.g. "
              + b + "-" + a;
        }
        lo = a;
        hi = dash < 0 && slash >= 0 ? max : b;
      }
      for (int v = lo; v <= hi; v += step) {
        bits.set(v);
      }
      return null;
    }

    private Integer value(String s) {
      int named = names.indexOf(s.toUpperCase(Locale.ROOT));
      if (named >= 0) {
        return named + min;
      }
      Integer v = number(s);
      return v != null && v >= min && v <= max ? v : null;
    }

    private static Integer number(String s) {
      if (s.isEmpty() || s.length() > 4 || !s.chars().allMatch(Character::isDigit)) {
        return null;
      }
      return Integer.parseInt(s);
    }
  }
}
