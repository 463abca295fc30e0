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
 * @param futilityEffect with looks: the smallest relative change worth finding (0.05 = 5%). A
 *     metric still undecided at a look whose futility interval lies inside
 *     ±max(futilityEffect, noiseThreshold) is called no change there, so an experiment where
 *     nothing moved stops early; 0 = no futility stop. Ignored without looks.
 * @param futilityBeta the largest probability, per metric, of such a futility call when the
 *     metric really changed by ±futilityEffect (the futility intervals are repeated intervals
 *     at 1 - 2 beta, beta spent linearly over the looks); in (0, 0.5)
 */
public record Policy(double noiseThreshold, double alpha, List<Integer> looks,
    double futilityEffect, double futilityBeta) {
  /** The noise threshold experiments get unless they say otherwise (2%). */
  public static final double DEFAULT_NOISE_THRESHOLD = 0.02;
  /** The family-wise level experiments get unless they say otherwise. */
  public static final double DEFAULT_ALPHA = 0.05;
  public static final Policy DEFAULT = new Policy(DEFAULT_NOISE_THRESHOLD, DEFAULT_ALPHA);
  /** The futility effect experiments get unless they say otherwise. */
  public static final double DEFAULT_FUTILITY_EFFECT = 0.05;
  /** The futility error bound experiments get unless they say otherwise. */
  public static final double DEFAULT_FUTILITY_BETA = 0.10;

  public Policy {
    looks = looks == null ? List.of() : List.copyOf(looks);
  }

  /** No futility stop. */
  public Policy(double noiseThreshold, double alpha, List<Integer> looks) {
    this(noiseThreshold, alpha, looks, 0, DEFAULT_FUTILITY_BETA);
  }

  /** Fixed sample size: one look at the end. */
  public Policy(double noiseThreshold, double alpha) {
    this(noiseThreshold, alpha, List.of());
  }

  /** This policy with other looks. */
  public Policy withLooks(List<Integer> newLooks) {
    return new Policy(noiseThreshold, alpha, newLooks, futilityEffect, futilityBeta);
  }

  /** This policy with a futility stop at {@code effect} (0 = none) and error bound {@code beta}. */
  public Policy withFutility(double effect, double beta) {
    return new Policy(noiseThreshold, alpha, looks, effect, beta);
  }

  /** True when a metric may stop for futility: looks declared and an effect given. */
  public boolean futility() {
    return !looks.isEmpty() && futilityEffect > 0;
  }
}
