package dev.abfleet.stats;

import java.util.List;

/**
 * One gating metric's evidence under the small-sample family test ({@link SmallFamily}): the
 * paired evidence's centers, diagnostics and warnings, with the p-value, estimate and interval
 * of {@link JointSignFlip}. The interval is the family's, whatever level is asked (the family's
 * critical value is what makes it agree with the family-wise decision); only the host
 * bootstrap that widens it when the pairs come from several hosts is taken at that level.
 */
record JointEvidence(PairedEvidence base, double pValue, double logEstimate, double[] interval,
    int pairs, int gatingMetrics) implements Evidence {

  @Override
  public boolean paired() {
    return true;
  }

  @Override
  public int nBaseline() {
    return pairs;
  }

  @Override
  public int nCandidate() {
    return pairs;
  }

  @Override
  public int nPairs() {
    return pairs;
  }

  @Override
  public double baselineCenter() {
    return base.baselineCenter();
  }

  @Override
  public double candidateCenter() {
    return base.candidateCenter();
  }

  @Override
  public double[] logInterval(double alpha) {
    if (interval == null || base.bootstrap() == null) {
      return interval;
    }
    double[] boot = HostEffects.percentile(base.bootstrap(), alpha);
    return new double[] {Math.min(interval[0], boot[0]), Math.max(interval[1], boot[1])};
  }

  @Override
  public String noIntervalWarning(double alpha) {
    return "n=" + pairs + " complete " + Pairs.plural(pairs, "pair") + " are too few for a"
        + " family-wise interval over " + gatingMetrics + " gating "
        + (gatingMetrics == 1 ? "metric" : "metrics");
  }

  @Override
  public List<String> flags() {
    return base.flags();
  }

  @Override
  public boolean hostsDisagree() {
    return base.hostsDisagree();
  }

  @Override
  public List<String> warnings() {
    return base.warnings();
  }
}
