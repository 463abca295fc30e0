package dev.abfleet.bench.calibrate;

import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Error rates at the pair counts people really run ({@code calibrate --pairs 8,12,16,32}):
 * every fixed-size rule on the same simulated experiments of exactly n pairs, with Monte Carlo
 * intervals. Sequential rules (looks 8..32) are measured only at 32 pairs, their design.
 * Deterministic for a seed, whatever the number of threads.
 */
public final class SmallSamples {
  private SmallSamples() {}

  /**
   * @param falsePositive A/A experiments with any gating metric flagged (family-wise)
   * @param power5 ±5% experiments with metric 0 flagged in the true direction
   * @param power10 same at ±10%
   */
  public record Row(Scenario scenario, int pairs, Rule rule, Rate falsePositive, Rate power5,
      Rate power10) {}

  /** Successes of n trials, with the Wilson score interval at 95%. */
  public record Rate(long hits, long trials) {
    double value() {
      return trials == 0 ? Double.NaN : hits / (double) trials;
    }

    double[] wilson() {
      return Wilson.interval(hits, trials, 1.959963984540054);
    }
  }

  /** The rules measured at {@code pairs}: every fixed-size rule, sequential ones at 32 only. */
  public static List<Rule> rulesAt(int pairs) {
    return Arrays.stream(Rule.values()).filter(r -> r.fixedSize() || pairs == 32).toList();
  }

  public static List<Row> run(Scenario s, int experiments, long seed, int metrics, Policy policy,
      int pairs) {
    List<Rule> rules = rulesAt(pairs);
    long[][] hits = new long[rules.size()][Calibration.EFFECTS.length];
    for (int c = 0; c < Calibration.EFFECTS.length; c++) {
      int effectCase = c;
      int[][] results = IntStream.range(0, experiments).parallel()
          .mapToObj(i -> one(s, seed, effectCase, i, pairs, metrics, policy, rules))
          .toArray(int[][]::new);
      for (int[] r : results) {
        for (int k = 0; k < rules.size(); k++) {
          hits[k][effectCase] += r[k];
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < rules.size(); k++) {
      rows.add(new Row(s, pairs, rules.get(k), new Rate(hits[k][0], experiments),
          new Rate(hits[k][1], experiments), new Rate(hits[k][2], experiments)));
    }
    return rows;
  }

  /** Per rule: 1 when it flagged (A/A: any metric; A/B: metric 0 in the true direction). */
  private static int[] one(Scenario s, long seed, int effectCase, int i, int pairs, int metrics,
      Policy policy, List<Rule> rules) {
    SplittableRandom rng = new SplittableRandom(seed * 0x9E3779B97F4A7C15L
        + ((s.ordinal() * 8L + effectCase) * 64 + pairs) * 1_000_003L + i);
    double effect = Calibration.EFFECTS[effectCase] * (i % 2 == 0 ? 1 : -1);
    SimExperiment e = s.generate(rng, pairs, metrics, effect);
    int[] out = new int[rules.size()];
    for (int k = 0; k < out.length; k++) {
      int[] flags = rules.get(k).run(e, policy).flags();
      boolean hit = effectCase == 0 ? Arrays.stream(flags).anyMatch(f -> f != 0)
          : flags[0] == (int) Math.signum(effect);
      out[k] = hit ? 1 : 0;
    }
    return out;
  }
}
