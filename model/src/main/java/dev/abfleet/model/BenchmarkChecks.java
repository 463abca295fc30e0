package dev.abfleet.model;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The names a benchmark may use, checked the same way wherever a benchmark comes from: fleet.yaml
 * and spec files in the CLI, and every submission the controller receives. Each check returns one
 * line naming the bad value (quoted at most {@link #MAX_QUOTE} characters) and the fix, or empty.
 */
public final class BenchmarkChecks {
  private BenchmarkChecks() {}

  /** Where the metrics run: the guest's tmpfs (the default) or a fresh host directory shared in. */
  public static final List<String> VOLUMES = List.of("guest", "host");
  /** Page cache before each iteration: kept (the default) or dropped. */
  public static final List<String> CACHES = List.of("warm", "cold");
  /** Most characters of a bad value a message quotes: a message must stay one readable line. */
  public static final int MAX_QUOTE = 100;

  /** An arm's name: it becomes a report column, a file name and a label. */
  private static final Pattern ARM_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  /** An arm's name: 1 to 64 of letters, digits, '_', '.', '-'. */
  public static Optional<String> armName(String name) {
    if (name != null && ARM_NAME.matcher(name).matches()) {
      return Optional.empty();
    }
    return Optional.of("'" + quote(String.valueOf(name)) + "' may only use letters, digits, '_', '.', '-' (at"
        + " most 64)");
  }

  /** What modprobe takes: a module name, never a path (no '/', no '..', no .ko). */
  private static final Pattern MODULE = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

  /** A harness by name; a path (e.g. "../../bin/sh") is not a harness. Empty = fleetbench. */
  public static Optional<String> harness(String harness) {
    if (harness == null || harness.isEmpty() || Harnesses.names().contains(harness)) {
      return Optional.empty();
    }
    return Optional.of("unknown harness '" + quote(harness) + "'; expected one of "
        + String.join(", ", Harnesses.names()) + " (a name, not a path; empty = " + Harnesses.FLEETBENCH + ")");
  }

  /** Metrics of the harness (not of a workload, which names its own). */
  public static Optional<String> metric(String harness, String metric) {
    return Harnesses.checkMetrics(harness, List.of(metric));
  }

  /**
   * A gating metric must be measured: one of {@code metrics}, or when that is empty (= every
   * metric of the harness) one of the harness's.
   */
  public static Optional<String> gating(String harness, List<String> metrics, String gating) {
    if (metrics.isEmpty()) {
      return metric(harness, gating);
    }
    if (metrics.contains(gating)) {
      return Optional.empty();
    }
    return Optional.of("gating metric '" + quote(gating) + "' is not measured; expected one of "
        + String.join(", ", metrics) + " (add it to metrics or remove it from gating)");
  }

  public static Optional<String> volume(String volume) {
    return oneOf("volume", volume, VOLUMES);
  }

  public static Optional<String> cache(String cache) {
    return oneOf("cache", cache, CACHES);
  }

  /** A kernel module the guest loads, by the name modprobe takes. */
  public static Optional<String> module(String module) {
    if (module != null && MODULE.matcher(module).matches()) {
      return Optional.empty();
    }
    return Optional.of("'" + quote(String.valueOf(module)) + "' is not a module name; write the name modprobe"
        + " takes, e.g. 9p (1 to 64 of letters, digits, '_', '-'; no path, no .ko)");
  }

  private static Optional<String> oneOf(String what, String value, List<String> names) {
    if (names.contains(value)) {
      return Optional.empty();
    }
    return Optional.of("unknown " + what + " '" + quote(String.valueOf(value)) + "'; expected one of "
        + String.join(", ", names));
  }

  /** {@code value} for a one-line message: control characters as '?', at most {@link #MAX_QUOTE} characters. */
  public static String quote(String value) {
    String s = CONTROL.matcher(value).replaceAll("?");
    return s.length() <= MAX_QUOTE ? s : s.substring(0, MAX_QUOTE - 3) + "...";
  }
}
