package dev.abfleet.worker.sim;

import java.util.Arrays;
import java.util.List;

/**
 * The {@code abfleet.*} harness parameters of a boot, read back from the guest parameters the
 * way the guest's /init reads them, with fleetbench's defaults (5 iterations of 200 ms, no
 * warm-up, every metric).
 *
 * @param metrics requested metrics; empty = every metric of the model
 * @param iterations measured iterations per metric
 * @param iterationMs simulated length of one iteration
 * @param warmup warm-up iterations before the measured ones
 */
record SimHarnessArgs(List<String> metrics, int iterations, int iterationMs, int warmup) {
  static final int DEFAULT_ITERATIONS = 5;
  static final int DEFAULT_ITERATION_MS = 200;

  static SimHarnessArgs parse(List<String> guestParams) {
    List<String> metrics = List.of();
    int iterations = DEFAULT_ITERATIONS;
    int iterationMs = DEFAULT_ITERATION_MS;
    int warmup = 0;
    for (String p : guestParams) {
      int eq = p.indexOf('=');
      if (!p.startsWith("abfleet.") || eq < 0) {
        continue;
      }
      String value = p.substring(eq + 1);
      switch (p.substring(0, eq)) {
        case "abfleet.metrics" -> metrics = Arrays.stream(value.split(",")).filter(s -> !s.isEmpty()).toList();
        case "abfleet.iterations" -> iterations = positive(value, iterations);
        case "abfleet.iteration_ms" -> iterationMs = positive(value, iterationMs);
        case "abfleet.warmup" -> warmup = Math.max(0, positive(value, 0));
        default -> { }
      }
    }
    return new SimHarnessArgs(metrics, iterations, iterationMs, warmup);
  }

  private static int positive(String s, int fallback) {
    try {
      int v = Integer.parseInt(s);
      return v > 0 ? v : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
