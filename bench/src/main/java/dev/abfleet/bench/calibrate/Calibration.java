package dev.abfleet.bench.calibrate;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.MetricInput;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.VerdictEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Simulates A/A and A/B experiments per scenario and measures every {@link Rule} on the same
 * data. Deterministic for a seed: experiment i of a case draws from its own generator, so
 * results do not depend on the number of threads.
 */
public final class Calibration {
  /** Effects simulated on metric 0: none (A/A), then each size with both signs. */
  public static final double[] EFFECTS = {0.0, 0.05, 0.10};

  /**
   * @param falsePositive share of A/A experiments with any metric flagged
   * @param power5 share of ±5% experiments with metric 0 flagged in the true direction
   * @param power10 same at ±10%
   * @param coverage share of experiments whose interval for metric 0 covers the true change
   *     (NaN for rules without an interval)
   * @param coverage95 share of single-metric 95% intervals at 32 pairs (abfleet) that cover
   *     their metric's true change, over every metric of every experiment (the signed-rank
   *     interval is shift-equivariant, so metrics without a change count as much as metric 0)
   * @param meanPairsAa mean pairs used in A/A experiments
   * @param meanPairsAb mean pairs used in A/B experiments
   */
  public record Row(Scenario scenario, Rule rule, double falsePositive, double power5, double power10,
      double coverage, double coverage95, double meanPairsAa, double meanPairsAb) {}

  private Calibration() {}

  public static List<Row> run(int experiments, long seed, int metrics, Policy policy) {
    List<Row> rows = new ArrayList<>();
    for (Scenario s : Scenario.values()) {
      rows.addAll(run(s, experiments, seed, metrics, policy));
    }
    return rows;
  }

  public static List<Row> run(Scenario s, int experiments, long seed, int metrics, Policy policy) {
    Rule[] rules = Rule.values();
    int pairs = Rule.LOOKS.get(Rule.LOOKS.size() - 1);
    long[][] hits = new long[rules.length][EFFECTS.length];
    long[] covered = new long[rules.length];
    long[] withInterval = new long[rules.length];
    long[][] pairSum = new long[rules.length][2];
    long[] covered95 = new long[1];
    long[] intervals95 = new long[1];
    for (int c = 0; c < EFFECTS.length; c++) {
      int effectCase = c;
      Result[] results = IntStream.range(0, experiments).parallel()
          .mapToObj(i -> one(s, seed, effectCase, i, pairs, metrics, policy))
          .toArray(Result[]::new);
      for (Result r : results) {
        covered95[0] += r.covered95;
        intervals95[0] += r.intervals95;
        for (int k = 0; k < rules.length; k++) {
          Rule.Outcome o = r.outcomes[k];
          boolean hit = effectCase == 0
              ? java.util.Arrays.stream(o.flags()).anyMatch(f -> f != 0)
              : o.flags()[0] == (int) Math.signum(r.effect);
          hits[k][effectCase] += hit ? 1 : 0;
          if (!Double.isNaN(o.ciLow())) {
            withInterval[k]++;
            covered[k] += o.ciLow() <= r.effect && r.effect <= o.ciHigh() ? 1 : 0;
          }
          pairSum[k][effectCase == 0 ? 0 : 1] += o.pairs();
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    double n = experiments;
    for (int k = 0; k < rules.length; k++) {
      double coverage = withInterval[k] == 0 ? Double.NaN : covered[k] / (double) withInterval[k];
      double cov95 = rules[k] == Rule.ABFLEET_FIXED
          ? covered95[0] / (double) intervals95[0] : Double.NaN;
      rows.add(new Row(s, rules[k], hits[k][0] / n, hits[k][1] / n, hits[k][2] / n, coverage,
          cov95, pairSum[k][0] / n, pairSum[k][1] / (n * (EFFECTS.length - 1))));
    }
    return rows;
  }

  private record Result(double effect, Rule.Outcome[] outcomes, int covered95,
      int intervals95) {}

  private static Result one(Scenario s, long seed, int effectCase, int i, int pairs,
      int metrics, Policy policy) {
    SplittableRandom rng = new SplittableRandom(
        seed * 0x9E3779B97F4A7C15L + (s.ordinal() * 8L + effectCase) * 1_000_003L + i);
    double effect = EFFECTS[effectCase] * (i % 2 == 0 ? 1 : -1);
    SimExperiment e = s.generate(rng, pairs, metrics, effect);
    Rule[] rules = Rule.values();
    Rule.Outcome[] out = new Rule.Outcome[rules.length];
    for (int k = 0; k < rules.length; k++) {
      out[k] = rules[k].run(e, policy);
    }
    List<MetricInput> single = new ArrayList<>();
    for (int m = 0; m < e.metrics(); m++) {
      single.add(MetricInput.paired("m" + m, "ops/s", Direction.HIGHER, false,
          e.baseline()[m], e.candidate()[m], e.hosts(), e.baselineFirst()));
    }
    // not gating: each interval at 95% on its own
    List<Comparison> c = VerdictEngine.compare(single, policy);
    int cov = 0;
    for (int m = 0; m < c.size(); m++) {
      double truth = m == 0 ? effect : 0.0;
      cov += c.get(m).ciLow() <= truth && truth <= c.get(m).ciHigh() ? 1 : 0;
    }
    return new Result(effect, out, cov, c.size());
  }
}
