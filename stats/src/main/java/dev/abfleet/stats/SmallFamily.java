package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * The fixed-design verdicts of a small paired experiment (2 to {@link JointSignFlip#EXACT_MAX_N}
 * complete pairs): the gating metrics are decided together by {@link JointSignFlip} (maxT over
 * joint sign flips of whole pairs, normal scores of pooled ranks) instead of Holm over single-metric
 * signed-rank tests. At these sizes Holm's alpha/m meets a sign-flip distribution of a few
 * hundred patterns and wastes most of it; the joint test spends exactly alpha on the metrics'
 * real dependence. Non-gating metrics keep the single-metric test at alpha, as in
 * {@link VerdictEngine}.
 *
 * <p>Flipping a pair exchanges its two boots on every gating metric at once, which is a valid
 * null only when the gating inputs are different metrics of the same two arms over the same
 * pairs. So the engine's general path decides above 16 pairs, with looks, when a gating metric
 * is unpaired, and when a metric name repeats among the gating inputs (several candidate arms
 * sharing one baseline, or one family over host classes).
 */
final class SmallFamily {
  private SmallFamily() {}

  /** The verdicts, or null when this design is not the small paired case. */
  static List<Comparison> evaluate(List<MetricInput> metrics, Policy pol, long seed) {
    List<Integer> gating = new ArrayList<>();
    java.util.Set<String> names = new java.util.HashSet<>();
    for (int i = 0; i < metrics.size(); i++) {
      MetricInput in = metrics.get(i);
      if (in.gating()) {
        if (!in.paired() || !names.add(in.metric())
            || VerdictEngine.length(in) != VerdictEngine.length(metrics.get(0))) {
          return null;
        }
        gating.add(i);
      }
    }
    if (gating.isEmpty()) {
      return null;
    }
    double[][] logBaseline = new double[gating.size()][];
    double[][] logCandidate = new double[gating.size()][];
    for (int g = 0; g < gating.size(); g++) {
      logBaseline[g] = logs(metrics.get(gating.get(g)).baseline());
      logCandidate[g] = logs(metrics.get(gating.get(g)).candidate());
    }
    JointSignFlip.Result joint = JointSignFlip.test(logBaseline, logCandidate, pol.alpha());
    if (joint == null) {
      return null;
    }
    // the host bootstrap widens each interval at the Bonferroni level, as the general path's
    double bootstrapAlpha = pol.alpha() / gating.size();
    List<Comparison> out = new ArrayList<>(metrics.size());
    for (int i = 0; i < metrics.size(); i++) {
      MetricInput in = metrics.get(i);
      Evidence ev = VerdictEngine.evidence(in, pol, seed, i);
      int g = gating.indexOf(i);
      if (g < 0) {
        double alpha = pol.alpha();
        out.add(Verdicts.judge(in, ev, ev.pValue(), ev.pValue() <= alpha, alpha, pol));
        continue;
      }
      JointEvidence je = new JointEvidence((PairedEvidence) ev, joint.pValues()[g],
          joint.logEstimates()[g], joint.logIntervals()[g], joint.pairs(), gating.size());
      double adjusted = joint.adjusted()[g];
      out.add(Verdicts.judge(in, je, adjusted, adjusted <= pol.alpha(), bootstrapAlpha, pol));
    }
    return out;
  }

  /** ln of each value; NaN where it is missing or not positive. */
  private static double[] logs(double[] values) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i] > 0 ? Math.log(values[i]) : Double.NaN;
    }
    return out;
  }
}
