package dev.abfleet.testkit;

import java.util.SplittableRandom;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * Seeded fuzzing: checks a property on generated inputs. A fixed seed gives the same inputs on
 * every run, so a failure in CI replays exactly; the failure names the property, the seed, the
 * try and the input.
 */
public final class Fuzz {
  /** How much of a failing input the message shows. */
  static final int SHOWN = 500;

  private Fuzz() {}

  /**
   * Runs {@code property} on {@code tries} inputs drawn from {@code gen} with a random source
   * seeded with {@code seed}, stopping at the first input it throws on.
   *
   * @throws AssertionError naming the property, seed, try and input, caused by what the property threw
   */
  public static <T> void check(String name, long seed, int tries, Gen<T> gen, ThrowingConsumer<? super T> property) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < tries; i++) {
      T input = gen.next(random);
      try {
        property.accept(input);
      } catch (Throwable t) {
        throw new AssertionError(name + " failed with seed " + seed + " on try " + (i + 1) + " of " + tries
            + ", input " + show(input) + ": " + t, t);
      }
    }
  }

  /** The input as the failure message shows it: text and bytes quoted and escaped, cut when long. */
  static String show(Object input) {
    if (input instanceof byte[] b) {
      StringBuilder s = new StringBuilder("bytes \"");
      int n = Math.min(b.length, SHOWN);
      for (int i = 0; i < n; i++) {
        int c = b[i] & 0xFF;
        if (c == '"' || c == '\\') {
          s.append('\\').append((char) c);
        } else if (c >= 0x20 && c < 0x7F) {
          s.append((char) c);
        } else {
          s.append(String.format("\\x%02x", c));
        }
      }
      s.append('"');
      return b.length > n ? s + "... (" + b.length + " bytes in all)" : s.toString();
    }
    String text = String.valueOf(input);
    int n = Math.min(text.length(), SHOWN);
    StringBuilder s = new StringBuilder(input instanceof CharSequence ? "\"" : "");
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\n' -> s.append("\\n");
        case '\r' -> s.append("\\r");
        case '\t' -> s.append("\\t");
        case '\\' -> s.append("\\\\");
        case '"' -> s.append(input instanceof CharSequence ? "\\\"" : "\"");
        default -> s.append(c >= 0x20 && c < 0x7F ? String.valueOf(c) : String.format("\\u%04x", (int) c));
      }
    }
    if (input instanceof CharSequence) {
      s.append('"');
    }
    return text.length() > n ? s + "... (" + text.length() + " chars in all)" : s.toString();
  }
}
