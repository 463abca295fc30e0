package dev.abfleet.config;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sizes in bytes as users write them: {@code 1073741824}, {@code 512MiB}, {@code 20GiB}, {@code 1TiB}. */
public final class ByteSize {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(|B|KiB|MiB|GiB|TiB)");

  private ByteSize() {}

  /** The number of bytes, or empty when {@code text} is not a positive size of that form. */
  public static Optional<Long> parse(String text) {
    Matcher m = SIZE.matcher(text == null ? "" : text.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "kib" -> 10;
      case "mib" -> 20;
      case "gib" -> 30;
      case "tib" -> 40;
      default -> 0;
    };
    try {
      long n = Long.parseLong(m.group(1));
      if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
        return Optional.empty();
      }
      return Optional.of(n << shift);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** What {@link #parse} accepts, for messages. */
  public static final String EXPECTED = "a positive size in bytes, optionally with KiB, MiB, GiB or TiB (e.g. 20GiB)";
}
