package dev.abfleet.bench.calibrate;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Decision;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.MetricInput;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.SequentialPlan;
import dev.abfleet.stats.VerdictEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A way to decide an A/B experiment: abfleet's, and the anchors it is measured against. */
public enum Rule {
  /** abfleet, group-sequential: looks at 8, 16, 24, 32 pairs, stops when all are decided. */
  ABFLEET_SEQUENTIAL("abfleet sequential (looks 8,16,24,32)"),
  /** The same with the futility stop fleet.yaml turns on by default (5%, beta 10%). */
  ABFLEET_SEQUENTIAL_FUTILITY("abfleet sequential + futility 5%"),
  /** abfleet at a fixed number of pairs (32 unless calibrate's --pairs says otherwise). */
  ABFLEET_FIXED("abfleet fixed n"),
  /** benchstat-like: all boots pooled per arm, Mann-Whitney at 0.05 per metric. */
  POOLED_MANN_WHITNEY("benchstat-like pooled Mann-Whitney"),
  /** The same with Holm over the metrics: family-wise 0.05 by construction. */
  POOLED_MANN_WHITNEY_HOLM("pooled Mann-Whitney, Holm"),
  /** Pinpoint-like: pooled Mann-Whitney at 8, 16, 32 pairs, stop at the first p < 0.05. */
  ADAPTIVE_RETEST("Pinpoint-like adaptive re-test"),
  /** Threshold gate: |median ratio - 1| > 5% at 32 pairs (or calibrate's --pairs). */
  THRESHOLD_GATE("threshold gate 5%");

  public static final List<Integer> LOOKS = List.of(8, 16, 24, 32);
  public static final double GATE = 0.05;
  private static final Policy ANCHOR = new Policy(0.0, 0.05);

  public final String label;

  Rule(String label) {
    this.label = label;
  }

  /**
   * @param flags per metric: +1 flagged up, -1 flagged down, 0 not flagged
   * @param ciLow interval for metric 0 (relative change); NaN when the rule has none
   * @param pairs pairs used before the rule stopped
   */
  public record Outcome(int[] flags, double ciLow, double ciHigh, int pairs) {}

  /** Runs at any number of pairs; false for the rules whose looks end at 32 pairs. */
  boolean fixedSize() {
    return this != ABFLEET_SEQUENTIAL && this != ABFLEET_SEQUENTIAL_FUTILITY && this != ADAPTIVE_RETEST;
  }

  public Outcome run(SimExperiment e, Policy policy) {
    return switch (this) {
      case ABFLEET_SEQUENTIAL -> sequential(e, policy);
      case ABFLEET_SEQUENTIAL_FUTILITY -> sequential(e, policy.withFutility(
          Policy.DEFAULT_FUTILITY_EFFECT, Policy.DEFAULT_FUTILITY_BETA));
      case ABFLEET_FIXED -> abfleet(VerdictEngine.compare(paired(e, e.pairs()), policy),
          e.pairs());
      case POOLED_MANN_WHITNEY -> pooled(e, e.pairs(), false);
      case POOLED_MANN_WHITNEY_HOLM -> pooled(e, e.pairs(), true);
      case ADAPTIVE_RETEST -> adaptive(e);
      case THRESHOLD_GATE -> gate(e);
    };
  }

  private static Outcome sequential(SimExperiment e, Policy policy) {
    Decision d = SequentialPlan.of(policy.withLooks(LOOKS))
        .firstStop(paired(e, e.pairs()), VerdictEngine.DEFAULT_SEED);
    return abfleet(d.comparisons(), LOOKS.get(d.look()));
  }

  private static Outcome abfleet(List<Comparison> out, int pairs) {
    int[] flags = new int[out.size()];
    for (int m = 0; m < flags.length; m++) {
      Comparison c = out.get(m);
      flags[m] = c.decisive() ? (c.change() > 0 ? 1 : -1) : 0;
    }
    return new Outcome(flags, out.get(0).ciLow(), out.get(0).ciHigh(), pairs);
  }

  private static Outcome pooled(SimExperiment e, int pairs, boolean holm) {
    List<MetricInput> in = new ArrayList<>();
    for (int m = 0; m < e.metrics(); m++) {
      in.add(MetricInput.unpaired("m" + m, "ops/s", Direction.HIGHER, holm,
          Arrays.copyOf(e.baseline()[m], pairs), Arrays.copyOf(e.candidate()[m], pairs)));
    }
    List<Comparison> out = VerdictEngine.compare(in, ANCHOR);
    int[] flags = new int[out.size()];
    for (int m = 0; m < flags.length; m++) {
      Comparison c = out.get(m);
      flags[m] = (holm ? c.pAdjusted() <= 0.05 : c.pValue() < 0.05) ? (c.change() > 0 ? 1 : -1)
          : 0;
    }
    return new Outcome(flags, Double.NaN, Double.NaN, pairs);
  }

  private static Outcome adaptive(SimExperiment e) {
    Outcome o = null;
    for (int n : new int[] {8, 16, 32}) {
      o = pooled(e, n, false);
      if (Arrays.stream(o.flags()).anyMatch(f -> f != 0)) {
        return o;
      }
    }
    return o;
  }

  private static Outcome gate(SimExperiment e) {
    int[] flags = new int[e.metrics()];
    for (int m = 0; m < flags.length; m++) {
      double ratio = VerdictEngine.median(e.candidate()[m]) / VerdictEngine.median(e.baseline()[m]);
      flags[m] = Math.abs(ratio - 1) > GATE ? (ratio > 1 ? 1 : -1) : 0;
    }
    return new Outcome(flags, Double.NaN, Double.NaN, e.pairs());
  }

  public static List<MetricInput> paired(SimExperiment e, int pairs) {
    List<MetricInput> in = new ArrayList<>();
    for (int m = 0; m < e.metrics(); m++) {
      in.add(MetricInput.paired("m" + m, "ops/s", Direction.HIGHER, true,
          Arrays.copyOf(e.baseline()[m], pairs), Arrays.copyOf(e.candidate()[m], pairs),
          e.hosts(), e.baselineFirst()));
    }
    return in;
  }
}
