package dev.abfleet.cli.bisect;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Decision;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.MetricInput;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.SequentialPlan;
import dev.abfleet.stats.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * A probe that adds pairs look by look ({@link SequentialPlan}, alpha spent over the looks)
 * and stops as soon as the metric is judged: BAD when the verdict is regressed, GOOD when it
 * is improved or no_change, or when the interval excludes a regression beyond the noise
 * threshold (non-inferiority: the question a bisect asks is "did this step regress", not
 * "did it change"). After the last look, INCONCLUSIVE. Each look is one experiment of the
 * pairs still missing.
 */
public final class SequentialProbe implements Probe {
  private final PairSource source;
  private final String metric;
  private final Policy policy;
  private final SequentialPlan plan;

  /** @param policy noise threshold, alpha and the looks (ascending cumulative pair counts) */
  public SequentialProbe(PairSource source, String metric, Policy policy) {
    if (policy.looks().isEmpty()) {
      throw new IllegalArgumentException("a sequential probe needs looks, e.g. 10, 15, 20");
    }
    this.source = source;
    this.metric = metric;
    this.policy = policy;
    this.plan = SequentialPlan.of(policy);
  }

  @Override
  public ProbeResult compare(int good, int candidate) {
    Acc acc = new Acc();
    List<Integer> looks = plan.looks();
    for (int k = 0; k < looks.size(); k++) {
      acc.add(source.run(good, candidate, looks.get(k) - acc.size()));
      Direction better = parseDirection(acc.better);
      MetricInput in = MetricInput.paired(metric, acc.unit, better, true, acc.good(), acc.candidate(),
          acc.hosts(), acc.baselineFirst());
      Decision d = plan.decide(k, List.of(in));
      Comparison c = d.comparisons().get(0);
      Outcome o = outcome(c, better);
      String at = " at look " + (k + 1) + " of " + looks.size() + " (" + acc.size() + " pairs)";
      if (o != Outcome.INCONCLUSIVE) {
        return result(o, acc, k + 1, c, c.verdict().wire() + at);
      }
      if (k == looks.size() - 1) {
        return result(o, acc, k + 1, c, "inconclusive" + at + ": " + String.join(", ", c.reasons()));
      }
    }
    throw new IllegalStateException("unreachable");
  }

  /** Regressed: BAD. Improved or no change, or non-inferior by the interval: GOOD. */
  Outcome outcome(Comparison c, Direction better) {
    if (c.verdict() == Verdict.REGRESSED) {
      return Outcome.BAD;
    }
    if (c.verdict() == Verdict.IMPROVED || c.verdict() == Verdict.NO_CHANGE) {
      return Outcome.GOOD;
    }
    double delta = policy.noiseThreshold();
    boolean nonInferior = better == Direction.HIGHER ? c.ciLow() >= -delta : c.ciHigh() <= delta;
    return !Double.isNaN(c.ciLow()) && nonInferior ? Outcome.GOOD : Outcome.INCONCLUSIVE;
  }

  private static ProbeResult result(Outcome o, Acc acc, int experiments, Comparison c, String note) {
    return new ProbeResult(o, acc.size(), experiments, c.change(), c.ciLow(), c.ciHigh(), note);
  }

  private static Direction parseDirection(String better) {
    try {
      return Direction.parse(better);
    } catch (IllegalArgumentException e) {
      return Direction.HIGHER;
    }
  }

  /** Pairs accumulated over the looks, in the order they ran. */
  private static final class Acc {
    final List<Double> good = new ArrayList<>();
    final List<Double> candidate = new ArrayList<>();
    final List<String> hosts = new ArrayList<>();
    final List<Boolean> first = new ArrayList<>();
    String unit = "";
    String better = "higher";
    boolean orderKnown = true;

    void add(PairSource.Batch b) {
      int n = Math.min(b.good().length, b.candidate().length);
      for (int i = 0; i < n; i++) {
        good.add(b.good()[i]);
        candidate.add(b.candidate()[i]);
        hosts.add(b.hosts() == null ? "" : b.hosts()[i]);
        first.add(b.baselineFirst() != null && b.baselineFirst()[i]);
      }
      if (b.baselineFirst() == null) {
        orderKnown = false;
      }
      if (b.unit() != null && !b.unit().isEmpty()) {
        unit = b.unit();
      }
      if (b.better() != null && !b.better().isEmpty()) {
        better = b.better();
      }
    }

    int size() {
      return good.size();
    }

    double[] good() {
      return good.stream().mapToDouble(Double::doubleValue).toArray();
    }

    double[] candidate() {
      return candidate.stream().mapToDouble(Double::doubleValue).toArray();
    }

    String[] hosts() {
      return hosts.toArray(String[]::new);
    }

    /** Null when some experiment did not say (order diagnostics then stay off). */
    boolean[] baselineFirst() {
      if (!orderKnown) {
        return null;
      }
      boolean[] out = new boolean[first.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = first.get(i);
      }
      return out;
    }
  }
}
