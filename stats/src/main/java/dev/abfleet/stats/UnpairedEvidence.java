package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Two independent samples of one metric (no pairing): Mann-Whitney U p, two-sample
 * Hodges-Lehmann shift of the log values (median of all ln y_j - ln x_i) and its interval by
 * inverting the Mann-Whitney test.
 */
record UnpairedEvidence(
    double[] baseline,
    double[] candidate,
    double pValue,
    double[] logBaseline,
    double[] logCandidate,
    double logEstimate,
    List<String> flags,
    List<String> warnings) implements Evidence {

  static UnpairedEvidence of(MetricInput in, Policy policy) {
    List<String> warnings = new ArrayList<>();
    List<String> flags = new ArrayList<>();
    double[] a = usable(in.baseline(), "baseline", warnings);
    double[] b = usable(in.candidate(), "candidate", warnings);
    if (failed(in.baseline()) + failed(in.candidate()) > 0) {
      flags.add(Reasons.BOOT_FAILURES);
    }
    double[] x = PairedEvidence.logs(a);
    double[] y = PairedEvidence.logs(b);
    double p = MannWhitney.twoSidedP(x, y);
    double hl = HodgesLehmann.shiftMedian(x, y);
    double gap = Math.log1p(policy.noiseThreshold());
    if (Bimodality.bimodal(x, gap) || Bimodality.bimodal(y, gap)) {
      flags.add(Reasons.BIMODAL);
      warnings.add("boot values fall into two separated groups (bimodal); a median hides that");
    }
    return new UnpairedEvidence(a, b, p, x, y, hl, List.copyOf(flags), List.copyOf(warnings));
  }

  @Override
  public boolean paired() {
    return false;
  }

  @Override
  public int nBaseline() {
    return baseline.length;
  }

  @Override
  public int nCandidate() {
    return candidate.length;
  }

  @Override
  public int nPairs() {
    return 0;
  }

  @Override
  public double baselineCenter() {
    return VerdictEngine.median(baseline);
  }

  @Override
  public double candidateCenter() {
    return VerdictEngine.median(candidate);
  }

  @Override
  public double[] logInterval(double alpha) {
    return HodgesLehmann.shiftInterval(logBaseline, logCandidate, alpha);
  }

  @Override
  public String noIntervalWarning(double alpha) {
    int need = 1;
    while (MannWhitney.intervalIndex(need, need, alpha) < 1 && need < 10_000) {
      need++;
    }
    return "n=" + baseline.length + "+" + candidate.length + " usable boots; need at least "
        + need + " per arm for a " + Verdicts.percent(1 - alpha) + " interval";
  }

  @Override
  public boolean hostsDisagree() {
    return false;
  }

  private static int failed(double[] v) {
    int n = 0;
    if (v != null) {
      for (double x : v) {
        if (Double.isNaN(x)) {
          n++;
        }
      }
    }
    return n;
  }

  /** Finite values > 0, with a warning for each kind of value dropped. */
  private static double[] usable(double[] v, String arm, List<String> warnings) {
    if (v == null) {
      return new double[0];
    }
    int nan = failed(v);
    double[] kept = java.util.Arrays.stream(v).filter(Pairs::usable).toArray();
    int invalid = v.length - nan - kept.length;
    if (nan > 0) {
      warnings.add(nan + " of " + v.length + " " + arm + " " + Pairs.plural(v.length, "boot")
          + " failed (NaN value)");
    }
    if (invalid > 0) {
      warnings.add(invalid + " of " + v.length + " " + arm + " "
          + Pairs.plural(v.length, "value")
          + " dropped for a zero, negative or infinite value (values must be finite and > 0)");
    }
    return kept;
  }
}
