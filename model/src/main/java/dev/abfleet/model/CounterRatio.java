package dev.abfleet.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A ratio of two guest counters a report shows per boot, e.g. reschedule IPIs per virtio-fs
 * request interrupt: {@code {name: res_per_virtio_req, num: RES, den: "virtio*-request*"}}.
 *
 * @param name identifier in reports: a letter, then letters, digits or '_' (at most 64)
 * @param num a /proc/interrupts row name as the harness reports it ("RES", "virtio2-requests.0")
 *     or a glob over them where '*' matches any run of characters and the matching rows are
 *     summed; "ctxt" names context switches (/proc/stat), which no glob matches
 * @param den the same for the denominator
 */
public record CounterRatio(String name, String num, String den) {
  /** Ratios one benchmark may declare. */
  public static final int MAX = 32;
  /** The device request interrupt rows of virtio devices (9p, virtio-fs): the default denominator. */
  public static final String DEVICE_REQUESTS = "virtio*-request*";
  /** Name of the default ratio: reschedule IPIs per device request interrupt. */
  public static final String DEFAULT_NAME = "res_per_device_req";

  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
  /** Visible characters other than other globs' wildcards and brackets. */
  private static final Pattern ROW = Pattern.compile("[!-~&&[^?\\[\\]{}]]{1,64}");
  private static final String EXAMPLE = "e.g. {name: res_per_virtio_req, num: RES,"
      + " den: \"virtio*-request*\"}";

  public CounterRatio {
    name = name == null ? "" : name;
    num = num == null ? "" : num;
    den = den == null ? "" : den;
  }

  /** What is wrong with the name; empty = valid. */
  public static Optional<String> nameProblem(String name) {
    if (name == null || name.isEmpty()) {
      return Optional.of("the ratio has no name; give one, " + EXAMPLE);
    }
    if (!NAME.matcher(name).matches()) {
      return Optional.of("ratio name '" + name + "' must start with a letter and use only letters,"
          + " digits and '_' (at most 64), e.g. res_per_virtio_req");
    }
    return Optional.empty();
  }

  /** What is wrong with a numerator or denominator ({@code side} "num" or "den"); empty = valid. */
  public static Optional<String> rowProblem(String side, String pattern) {
    if (pattern == null || pattern.isBlank()) {
      return Optional.of(side + " is empty; name an interrupt row (RES, virtio1-requests), a glob"
          + " over them with '*' (virtio*-request*), or ctxt");
    }
    if (!ROW.matcher(pattern).matches()) {
      return Optional.of(side + " '" + pattern + "' is not a row name or glob; use the row names of"
          + " /proc/interrupts as reported (no spaces, at most 64 characters), '*' as the only"
          + " wildcard");
    }
    return Optional.empty();
  }

  /**
   * Every problem of a benchmark's ratios, each naming the field ({@code ratios[1].den}) and the
   * fix; empty = valid.
   */
  public static List<String> problems(List<CounterRatio> ratios) {
    List<String> out = new ArrayList<>();
    if (ratios.size() > MAX) {
      out.add("ratios: " + ratios.size() + " given; at most " + MAX);
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < ratios.size(); i++) {
      CounterRatio r = ratios.get(i);
      String at = "ratios[" + i + "].";
      nameProblem(r.name()).ifPresent(p -> out.add(at + "name: " + p));
      rowProblem("num", r.num()).ifPresent(p -> out.add(at + "num: " + p));
      rowProblem("den", r.den()).ifPresent(p -> out.add(at + "den: " + p));
      if (!r.name().isEmpty() && !names.add(r.name())) {
        out.add(at + "name: " + duplicate(r.name()));
      }
    }
    return out;
  }

  /** The message for a second ratio named {@code name}. */
  public static String duplicate(String name) {
    return "two ratios are named '" + name + "'; give each ratio its own name";
  }
}
