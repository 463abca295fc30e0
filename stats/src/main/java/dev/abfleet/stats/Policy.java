package dev.abfleet.stats;

import java.util.List;

/**
 * Decision policy of an experiment.
 *
 * @param noiseThreshold relative change below which an effect counts as noise (0.02 = 2%)
 * @param alpha family-wise significance level across the gating metrics, over all looks
 * @param looks cumulative pair counts at which the experiment looks at its data and may stop,
 *     ascending (e.g. 8, 16, 24, 32); empty = one look at the end (fixed sample size). The
 *     alpha is spent over the looks ({@link SequentialPlan}).
 */
public record Policy(double noiseThreshold, double alpha, List<Integer> looks) {
  public static final Policy DEFAULT = new Policy(0.02, 0.05);

  public Policy {
    looks = looks == null ? List.of() : List.copyOf(looks);
  }

  /** Fixed sample size: one look at the end. */
  public Policy(double noiseThreshold, double alpha) {
    this(noiseThreshold, alpha, List.of());
  }

  /** This policy with other looks. */
  public Policy withLooks(List<Integer> newLooks) {
    return new Policy(noiseThreshold, alpha, newLooks);
  }
}
