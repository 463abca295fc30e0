package dev.abfleet.config;

import java.math.BigDecimal;

/**
 * The accepted ranges of the verdict policy's noise threshold and alpha: one check for every
 * command that takes {@code --threshold} or {@code --alpha}, and the bounds fleet.yaml uses.
 * The controller accepts a wider alpha; the CLI keeps to levels that make sense for a gate.
 */
public final class PolicyRanges {
  /** Exclusive bounds of the noise threshold, a relative change (0.02 = 2%). */
  public static final double THRESHOLD_MIN = 0;
  public static final double THRESHOLD_MAX = 1;
  /** Exclusive bounds of alpha. */
  public static final double ALPHA_MIN = 0;
  public static final double ALPHA_MAX = 0.5;

  private PolicyRanges() {}

  /** Returns {@code value} of {@code --threshold}, or throws a {@link Problem} naming the range. */
  public static double threshold(double value) {
    if (!(value > THRESHOLD_MIN && value < THRESHOLD_MAX)) {
      throw new Problem("--threshold " + show(value) + ": expected a relative change between 0 and 1"
          + " (both exclusive), e.g. 0.02 for 2%");
    }
    return value;
  }

  /** Returns {@code value} of {@code --alpha}, or throws a {@link Problem} naming the range. */
  public static double alpha(double value) {
    if (!(value > ALPHA_MIN && value < ALPHA_MAX)) {
      throw new Problem("--alpha " + show(value) + ": expected a significance level between 0 and 0.5"
          + " (both exclusive), e.g. 0.05");
    }
    return value;
  }

  private static String show(double v) {
    return Double.isFinite(v) ? BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : Double.toString(v);
  }
}
