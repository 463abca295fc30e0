package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

/**
 * Entry point of the verdict engine. Pure: no I/O, no clock; the only randomness (the host
 * cluster bootstrap) comes from the seed passed in.
 *
 * <p>Paired inputs ({@link MetricInput#paired()}): each metric is analysed on d_i =
 * ln(candidate_i) - ln(baseline_i): a signed-rank p-value whose scores are bounded for the
 * largest |d| when the |d| are heavy-tailed and are Wilcoxon's otherwise ({@link
 * AdaptiveSignedRank}; exact with ties up to 100 non-zero differences), the interval from
 * inverting the same test, the Hodges-Lehmann estimate (the test's own when that falls
 * outside), widened by a cluster bootstrap over hosts when the pairs come from several hosts. Unpaired inputs: Mann-Whitney
 * U (exact with ties up to 40 values) and the two-sample Hodges-Lehmann interval. Gating
 * metrics share the family-wise error rate alpha: Holm-adjusted p-values and
 * Bonferroni-level (1 - alpha/m) intervals. With looks in the policy, the alpha is spent over
 * the looks ({@link SequentialPlan}). A fixed design of 2 to 16 paired pairs decides its gating
 * metrics together instead ({@link SmallFamily}: maxT over joint sign flips of normal scores
 * of the pooled ranks, intervals inverting the same family test).
 */
public final class VerdictEngine {
  /** Seed of the host bootstrap when the caller gives none. */
  public static final long DEFAULT_SEED = 0x5eed_ab_f1ee7L;

  private VerdictEngine() {}

  /**
   * Same as {@link #compare(List, Policy)}; kept for callers that build paired inputs with the
   * six-argument {@link MetricInput} constructor.
   */
  public static List<Comparison> comparePaired(List<MetricInput> metrics, Policy policy) {
    return compare(metrics, policy, DEFAULT_SEED);
  }

  /** {@link #compare(List, Policy, long)} with {@link #DEFAULT_SEED}. */
  public static List<Comparison> compare(List<MetricInput> metrics, Policy policy) {
    return compare(metrics, policy, DEFAULT_SEED);
  }

  /**
   * Compares every metric (paired or unpaired as each input says), with family-wise error
   * control across the gating metrics. Results are in input order. Never throws on degenerate
   * data: NaN values and warnings instead. A null policy means {@link Policy#DEFAULT}. When
   * the policy declares looks, the data are judged as at the last look their pair count
   * reaches (the first look if they reach none), with verdicts reached at earlier looks kept.
   */
  public static List<Comparison> compare(List<MetricInput> metrics, Policy policy, long seed) {
    if (metrics == null || metrics.isEmpty()) {
      return List.of();
    }
    List<String> policyWarnings = new ArrayList<>();
    Policy pol = usable(policy, policyWarnings);
    List<Comparison> out;
    if (pol.looks().isEmpty()) {
      List<Comparison> small = SmallFamily.evaluate(metrics, pol, seed);
      out = small != null ? small
          : evaluate(metrics, pol, seed, a -> a, new boolean[metrics.size()]);
    } else {
      SequentialPlan plan = SequentialPlan.of(pol);
      int n = metrics.stream().mapToInt(VerdictEngine::length).max().orElse(0);
      out = plan.decide(plan.lookReachedBy(n), metrics, seed).comparisons();
    }
    if (policyWarnings.isEmpty()) {
      return out;
    }
    return out.stream().map(c -> c.withWarningsFirst(policyWarnings)).toList();
  }

  /**
   * One look: evidence per metric, Holm step-down over the gating metrics not rejected at an
   * earlier look, at the nominal levels {@code nominal.applyAsDouble(share of alpha)}.
   */
  static List<Comparison> evaluate(List<MetricInput> metrics, Policy pol, long seed,
      DoubleUnaryOperator nominal, boolean[] rejectedBefore) {
    return evaluate(metrics, pol, seed, nominal, rejectedBefore, Double.NaN, "");
  }

  /**
   * As above; a metric left inconclusive whose interval at the two-sided level
   * {@code futilityLevel} fits the policy's futility band is called no change
   * ({@link Verdicts#futile}). NaN = no futility test at this look.
   *
   * @param where the look, for the futility note
   */
  static List<Comparison> evaluate(List<MetricInput> metrics, Policy pol, long seed,
      DoubleUnaryOperator nominal, boolean[] rejectedBefore, double futilityLevel, String where) {
    int size = metrics.size();
    Evidence[] ev = new Evidence[size];
    double[] p = new double[size];
    List<Integer> gating = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      MetricInput in = metrics.get(i);
      ev[i] = evidence(in, pol, seed, i);
      p[i] = ev[i].pValue();
      if (in.gating()) {
        gating.add(i);
      }
    }
    double[] adjusted = p.clone();
    double[] gatingAdjusted = Holm.adjust(gating.stream().mapToDouble(i -> p[i]).toArray());
    for (int g = 0; g < gating.size(); g++) {
      adjusted[gating.get(g)] = gatingAdjusted[g];
    }
    boolean[] significant = stepDown(p, gating, rejectedBefore, pol.alpha(), nominal);
    int m = Math.max(1, gating.size());
    List<Comparison> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      MetricInput in = metrics.get(i);
      if (!in.gating()) {
        significant[i] = p[i] <= nominal.applyAsDouble(pol.alpha());
      }
      double ciAlpha = nominal.applyAsDouble(in.gating() ? pol.alpha() / m : pol.alpha());
      Comparison c = Verdicts.judge(in, ev[i], adjusted[i], significant[i], ciAlpha, pol);
      out.add(Double.isNaN(futilityLevel) ? c : Verdicts.futile(c, ev[i], futilityLevel, where, pol));
    }
    return out;
  }

  /**
   * Holm's step-down at nominal levels: with r gating hypotheses still open, the smallest p is
   * compared with nominal(alpha / r), the next with nominal(alpha / (r - 1)), and so on until
   * one fails. Hypotheses rejected before count as rejected and free their share of alpha.
   */
  static boolean[] stepDown(double[] p, List<Integer> gating, boolean[] rejectedBefore,
      double alpha, DoubleUnaryOperator nominal) {
    boolean[] rejected = new boolean[p.length];
    List<Integer> open = new ArrayList<>();
    for (int i : gating) {
      if (rejectedBefore[i]) {
        rejected[i] = true;
      } else {
        open.add(i);
      }
    }
    open.sort((a, b) -> Double.compare(nanAsOne(p[a]), nanAsOne(p[b])));
    int r = open.size();
    for (int j = 0; j < open.size(); j++) {
      int i = open.get(j);
      if (!(p[i] <= nominal.applyAsDouble(alpha / (r - j)))) {
        break;
      }
      rejected[i] = true;
    }
    return rejected;
  }

  private static double nanAsOne(double p) {
    return Double.isNaN(p) ? 1.0 : p;
  }

  static Evidence evidence(MetricInput in, Policy pol, long seed, int index) {
    if (!in.paired()) {
      return UnpairedEvidence.of(in, pol);
    }
    long mix = seed ^ (31L * String.valueOf(in.metric()).hashCode() + index)
        * 0x9E3779B97F4A7C15L;
    return PairedEvidence.of(in, pol, new SplittableRandom(mix));
  }

  /** Pairs (paired) or the larger arm's boots (unpaired) in the input arrays. */
  static int length(MetricInput in) {
    int a = in.baseline() == null ? 0 : in.baseline().length;
    int b = in.candidate() == null ? 0 : in.candidate().length;
    return in.paired() ? Math.min(a, b) : Math.max(a, b);
  }

  /** The policy, with out-of-range fields replaced by the default and a warning for each. */
  static Policy usable(Policy policy, List<String> warnings) {
    if (policy == null) {
      return Policy.DEFAULT;
    }
    double alpha = policy.alpha();
    double delta = policy.noiseThreshold();
    if (!(alpha > 0 && alpha < 1)) {
      warnings.add("policy alpha=" + alpha + " is outside (0, 1); using "
          + Policy.DEFAULT.alpha());
      alpha = Policy.DEFAULT.alpha();
    }
    if (!(delta >= 0 && delta < 1)) {
      warnings.add("policy noise threshold=" + delta + " is outside [0, 1); using "
          + Policy.DEFAULT.noiseThreshold());
      delta = Policy.DEFAULT.noiseThreshold();
    }
    List<Integer> looks = policy.looks();
    boolean ascending = true;
    for (int k = 0; k < looks.size(); k++) {
      if (looks.get(k) == null || looks.get(k) < 1
          || (k > 0 && looks.get(k) <= looks.get(k - 1))) {
        ascending = false;
      }
    }
    if (!ascending) {
      warnings.add("policy looks " + looks + " are not ascending positive pair counts;"
          + " using one look at the end");
      looks = List.of();
    }
    double effect = policy.futilityEffect();
    double beta = policy.futilityBeta();
    if (!(effect >= 0 && effect < 1)) {
      warnings.add("policy futility effect=" + effect + " is outside [0, 1); no futility stop");
      effect = 0;
    }
    if (effect > 0 && !(beta > 0 && beta < 0.5)) {
      warnings.add("policy futility beta=" + beta + " is outside (0, 0.5); using "
          + Policy.DEFAULT_FUTILITY_BETA);
      beta = Policy.DEFAULT_FUTILITY_BETA;
    }
    return new Policy(delta, alpha, looks, effect, beta);
  }

  /** Median of the values, ignoring NaN; NaN when none is left (or values is null). */
  public static double median(double[] values) {
    return Medians.of(values);
  }
}
