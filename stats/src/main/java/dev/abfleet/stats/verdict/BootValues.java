package dev.abfleet.stats.verdict;

import dev.abfleet.stats.Iterations;
import java.util.List;

/** A boot's one value per metric: what the verdict compares and what reports chart. */
public final class BootValues {
  private BootValues() {}

  /** Median of the boot's measured (non-warm-up) iterations; NaN when it failed or has none. */
  public static double of(VerdictBoot boot, String metric) {
    return of(boot, metric, null);
  }

  /** As {@link #of(VerdictBoot, String)}, counting only values in {@code unit} (null = any). */
  public static double of(VerdictBoot boot, String metric, String unit) {
    if (boot == null || boot.failed()) {
      return Double.NaN;
    }
    List<BootSample> its = boot.samples().stream()
        .filter(s -> s.metric().equals(metric) && (unit == null || s.unit().equals(unit)))
        .toList();
    double[] values = new double[its.size()];
    boolean[] warmup = new boolean[its.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = its.get(i).value();
      warmup[i] = its.get(i).warmup();
    }
    return Iterations.collapse(values, warmup).value();
  }
}
