package dev.abfleet.stats;

import java.util.Arrays;

/**
 * Iterations inside one boot collapse to one value per boot and metric (the unit of
 * analysis is the boot): warm-up iterations are dropped, the rest give their median.
 */
public final class Iterations {
  private Iterations() {}

  /**
   * @param value the boot's value: median of the measured iterations, NaN when there is none
   * @param warmupDropped warm-up iterations dropped
   * @param onlyWarmup true when every iteration was marked warm-up (value is then NaN)
   */
  public record Collapsed(double value, int warmupDropped, boolean onlyWarmup) {}

  /**
   * @param values the iterations of one boot and metric, in any order
   * @param warmup per iteration, true for warm-up; null = none is warm-up
   */
  public static Collapsed collapse(double[] values, boolean[] warmup) {
    if (values == null || values.length == 0) {
      return new Collapsed(Double.NaN, 0, false);
    }
    double[] kept = new double[values.length];
    int n = 0;
    int dropped = 0;
    for (int i = 0; i < values.length; i++) {
      if (warmup != null && i < warmup.length && warmup[i]) {
        dropped++;
      } else {
        kept[n++] = values[i];
      }
    }
    return new Collapsed(VerdictEngine.median(Arrays.copyOf(kept, n)), dropped, n == 0);
  }
}
