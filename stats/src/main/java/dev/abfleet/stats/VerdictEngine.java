package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of the verdict engine. Pure: no I/O, no clock.
 *
 * <p>Paired design: pair i is one baseline boot and one candidate boot on the same host, back
 * to back. Each metric is analysed on d_i = ln(candidate_i) - ln(baseline_i): Hodges-Lehmann
 * estimate, Wilcoxon signed-rank p-value (exact with ties up to 50 non-zero differences), and
 * a signed-rank confidence interval. Gating metrics share the family-wise error rate alpha:
 * Holm-adjusted p-values and Bonferroni-level (1 - alpha/m) intervals.
 */
public final class VerdictEngine {
  private VerdictEngine() {}

  /**
   * Paired comparison of every metric, family-wise error control across gating metrics.
   * Results are in input order. Never throws on degenerate data: NaN values and warnings
   * instead. A null policy means {@link Policy#DEFAULT}.
   */
  public static List<Comparison> comparePaired(List<MetricInput> metrics, Policy policy) {
    if (metrics == null || metrics.isEmpty()) {
      return List.of();
    }
    List<String> policyWarnings = new ArrayList<>();
    Policy pol = usable(policy, policyWarnings);
    int size = metrics.size();
    Pairs[] pairs = new Pairs[size];
    double[] p = new double[size];
    List<Integer> gating = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      MetricInput in = metrics.get(i);
      pairs[i] = Pairs.of(in.baseline(), in.candidate());
      p[i] = PairedComparison.pValue(pairs[i]);
      if (in.gating()) {
        gating.add(i);
      }
    }
    double[] adjusted = p.clone();
    double[] gatingP = gating.stream().mapToDouble(i -> p[i]).toArray();
    double[] gatingAdjusted = Holm.adjust(gatingP);
    for (int g = 0; g < gating.size(); g++) {
      adjusted[gating.get(g)] = gatingAdjusted[g];
    }
    int m = Math.max(1, gating.size());
    List<Comparison> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      MetricInput in = metrics.get(i);
      double ciAlpha = in.gating() ? pol.alpha() / m : pol.alpha();
      Comparison c = PairedComparison.compare(in, pairs[i], p[i], adjusted[i], ciAlpha, pol);
      out.add(policyWarnings.isEmpty() ? c : withWarnings(c, policyWarnings));
    }
    return List.copyOf(out);
  }

  /** The policy, with out-of-range fields replaced by the default and a warning for each. */
  private static Policy usable(Policy policy, List<String> warnings) {
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
    return new Policy(delta, alpha);
  }

  private static Comparison withWarnings(Comparison c, List<String> extra) {
    List<String> all = new ArrayList<>(extra);
    all.addAll(c.warnings());
    return new Comparison(c.metric(), c.unit(), c.better(), c.gating(), c.nPairs(),
        c.baselineCenter(), c.candidateCenter(), c.change(), c.ciLow(), c.ciHigh(), c.pValue(),
        c.pAdjusted(), c.verdict(), c.reasons(), List.copyOf(all));
  }

  /** Median of the values, ignoring NaN; NaN when none is left (or values is null). */
  public static double median(double[] values) {
    if (values == null) {
      return Double.NaN;
    }
    double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
    int n = v.length;
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
  }
}
