package dev.abfleet.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A generator of test inputs for {@link Fuzz#check}: draws one value from the random source it is
 * given, so the same seed always gives the same values. Small on purpose: only what the fuzz
 * tests use.
 */
@FunctionalInterface
public interface Gen<T> {
  /** Longest text {@link #strings()} gives. */
  int DEFAULT_MAX_LENGTH = 255;

  T next(SplittableRandom r);

  /** This generator's values passed through {@code f}. */
  default <R> Gen<R> map(Function<? super T, ? extends R> f) {
    return r -> f.apply(next(r));
  }

  /** Lists of 0 to {@code maxSize} values of this generator. */
  default Gen<List<T>> list(int maxSize) {
    return list(0, maxSize);
  }

  /** Lists of {@code minSize} to {@code maxSize} values of this generator. */
  default Gen<List<T>> list(int minSize, int maxSize) {
    return r -> {
      int n = r.nextInt(minSize, maxSize + 1);
      List<T> values = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        values.add(next(r));
      }
      return values;
    };
  }

  /** One of {@code values}, each as likely. */
  @SafeVarargs
  static <T> Gen<T> of(T... values) {
    List<T> copy = List.of(values);
    return r -> copy.get(r.nextInt(copy.size()));
  }

  /** A value of one of {@code gens}, each generator as likely. */
  @SafeVarargs
  static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
    List<Gen<? extends T>> copy = List.of(gens);
    return r -> copy.get(r.nextInt(copy.size())).next(r);
  }

  /** Text made of 0 to {@code maxTokens} tokens drawn from {@code token}, joined without separator. */
  static Gen<String> tokens(Gen<String> token, int maxTokens) {
    return token.list(maxTokens).map(t -> String.join("", t));
  }

  /** Integers from {@code min} to {@code max}, both included. */
  static Gen<Integer> ints(int min, int max) {
    return r -> r.nextInt(min, max + 1);
  }

  static Gen<Boolean> booleans() {
    return SplittableRandom::nextBoolean;
  }

  /** Arrays of 0 to {@code maxLength} bytes of any value. */
  static Gen<byte[]> bytes(int maxLength) {
    return r -> {
      byte[] b = new byte[r.nextInt(maxLength + 1)];
      r.nextBytes(b);
      return b;
    };
  }

  /** One of the characters of {@code chars}. */
  static Gen<Character> chars(String chars) {
    return r -> chars.charAt(r.nextInt(chars.length()));
  }

  /** Text of 0 to {@code maxLength} characters of {@code chars}. */
  static Gen<String> strings(String chars, int maxLength) {
    Gen<Character> c = chars(chars);
    return r -> {
      StringBuilder s = new StringBuilder();
      for (int n = r.nextInt(maxLength + 1); n > 0; n--) {
        s.append(c.next(r));
      }
      return s.toString();
    };
  }

  /** Text of 0 to {@code maxLength} digits. */
  static Gen<String> digits(int maxLength) {
    return strings("0123456789", maxLength);
  }

  /** Any text of up to {@link #DEFAULT_MAX_LENGTH} characters. */
  static Gen<String> strings() {
    return strings(DEFAULT_MAX_LENGTH);
  }

  /**
   * Any text of 0 to {@code maxLength} UTF-16 chars: half ASCII (control characters included),
   * a quarter from U+0080 to U+07FF, a quarter from the whole 16-bit range, lone surrogates and
   * noncharacters included.
   */
  static Gen<String> strings(int maxLength) {
    return r -> {
      char[] c = new char[r.nextInt(maxLength + 1)];
      for (int i = 0; i < c.length; i++) {
        int kind = r.nextInt(4);
        c[i] = (char) (kind < 2 ? r.nextInt(0x80) : kind == 2 ? r.nextInt(0x80, 0x800) : r.nextInt(0x10000));
      }
      return new String(c);
    };
  }
}
