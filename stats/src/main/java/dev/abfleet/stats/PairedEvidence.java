package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Paired analysis of one metric on d_i = ln(candidate_i) - ln(baseline_i): signed-rank p with
 * scores chosen from the |d| ({@link AdaptiveSignedRank}), the interval from inverting that
 * same test ({@link AdaptiveInterval}), widened by a host-clustered bootstrap of the
 * Hodges-Lehmann estimate when the pairs come from several hosts; as estimate the
 * Hodges-Lehmann estimate when it lies inside the test's 1 - alpha interval, else the test's
 * own estimate, so that the estimate never contradicts the interval; and the diagnostics drift, order effect,
 * host heterogeneity and bimodality, each tested at the policy's alpha (they qualify a
 * verdict, they never make one, so they are not adjusted for multiplicity).
 */
record PairedEvidence(
    Pairs pairs,
    double pValue,
    AdaptiveInterval inversion,
    double logEstimate,
    double[] bootstrap,
    List<String> flags,
    boolean hostsDisagree,
    List<String> warnings) implements Evidence {

  static PairedEvidence of(MetricInput in, Policy policy, SplittableRandom rng) {
    Pairs pairs = Pairs.of(in.baseline(), in.candidate(), in.hosts(), in.baselineFirst());
    int n = pairs.n();
    double[] d = pairs.logRatios();
    List<String> warnings = new ArrayList<>(pairs.warnings());
    List<String> flags = new ArrayList<>();
    double p = n < 2 ? Double.NaN : AdaptiveSignedRank.twoSidedP(d);
    double hl = n < 2 ? Double.NaN : HodgesLehmann.walshMedian(d);
    AdaptiveInterval inversion = n < 2 ? null : AdaptiveInterval.of(d);
    double[] own = inversion == null ? null : inversion.interval(policy.alpha());
    if (own != null && !(hl >= own[0] && hl <= own[1])) {
      hl = inversion.estimate(); // rare: the estimate must lie inside the test's interval
    }
    if (pairs.failedBoots() > 0) {
      flags.add(Reasons.BOOT_FAILURES);
    }
    if (drifts(d, policy.alpha(), warnings)) {
      flags.add(Reasons.DRIFT);
    }
    if (orderEffect(pairs, policy.alpha(), warnings)) {
      flags.add(Reasons.ORDER_EFFECT);
    }
    double[] bootstrap = null;
    boolean disagree = false;
    if (pairs.hosts() != null) {
      List<int[]> groups = HostEffects.groups(pairs.hosts());
      if (groups.size() >= 2 && n >= 2) {
        bootstrap = HostEffects.bootstrap(d, groups, rng);
        double kw = HostEffects.kruskalWallisP(d, groups);
        if (kw <= policy.alpha()) {
          flags.add(Reasons.HOST_HETEROGENEITY);
          double[] per = HostEffects.perHostEstimates(d, groups);
          double delta = policy.noiseThreshold();
          disagree = Arrays.stream(per).anyMatch(x -> Math.expm1(x) > delta)
              && Arrays.stream(per).anyMatch(x -> Math.expm1(x) < -delta);
          warnings.add(String.format(Locale.ROOT,
              "the paired differences differ between the %d hosts (Kruskal-Wallis p=%.3g)%s",
              groups.size(), kw, disagree ? "; hosts disagree on the direction of the change"
                  : ""));
        }
      }
    }
    double gap = Math.log1p(policy.noiseThreshold());
    if (Bimodality.bimodal(logs(pairs.baseline()), gap)
        || Bimodality.bimodal(logs(pairs.candidate()), gap) || Bimodality.bimodal(d, gap)) {
      flags.add(Reasons.BIMODAL);
      warnings.add("boot values fall into two separated groups (bimodal); a median hides that");
    }
    return new PairedEvidence(pairs, p, inversion, hl, bootstrap, List.copyOf(flags), disagree,
        List.copyOf(warnings));
  }

  @Override
  public boolean paired() {
    return true;
  }

  @Override
  public int nBaseline() {
    return pairs.n();
  }

  @Override
  public int nCandidate() {
    return pairs.n();
  }

  @Override
  public int nPairs() {
    return pairs.n();
  }

  @Override
  public double baselineCenter() {
    return VerdictEngine.median(pairs.baseline());
  }

  @Override
  public double candidateCenter() {
    return VerdictEngine.median(pairs.candidate());
  }

  @Override
  public double[] logInterval(double alpha) {
    int n = pairs.n();
    double[] ci = inversion == null ? null : inversion.interval(alpha);
    if (ci == null || bootstrap == null) {
      return ci;
    }
    double[] boot = HostEffects.percentile(bootstrap, alpha);
    return new double[] {Math.min(ci[0], boot[0]), Math.max(ci[1], boot[1])};
  }

  @Override
  public String noIntervalWarning(double alpha) {
    int n = pairs.n();
    return "n=" + n + " usable " + Pairs.plural(n, "pair") + "; need at least "
        + HodgesLehmann.minPairsForInterval(alpha) + " for a " + Verdicts.percent(1 - alpha)
        + " interval";
  }

  static double[] logs(double[] v) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = Math.log(v[i]);
    }
    return out;
  }

  /** Kendall's tau of d over the pair index, two-sided at level alpha. */
  private static boolean drifts(double[] d, double alpha, List<String> warnings) {
    Trend.Result trend = Trend.kendall(d);
    if (!(trend.p() <= alpha)) {
      return false;
    }
    warnings.add(String.format(Locale.ROOT,
        "the paired differences trend over the run (Kendall tau=%.2f, p=%.3g): "
            + "the effect is not stable from first to last pair", trend.tau(), trend.p()));
    return true;
  }

  /** Mann-Whitney of d in baseline-first pairs against candidate-first pairs, at alpha. */
  private static boolean orderEffect(Pairs pairs, double alpha, List<String> warnings) {
    boolean[] first = pairs.baselineFirst();
    if (first == null) {
      return false;
    }
    double[] d = pairs.logRatios();
    double[] ab = new double[d.length];
    double[] ba = new double[d.length];
    int nab = 0;
    int nba = 0;
    for (int i = 0; i < d.length; i++) {
      if (first[i]) {
        ab[nab++] = d[i];
      } else {
        ba[nba++] = d[i];
      }
    }
    if (nab < 3 || nba < 3) {
      return false;
    }
    ab = Arrays.copyOf(ab, nab);
    ba = Arrays.copyOf(ba, nba);
    double p = MannWhitney.twoSidedP(ab, ba, 0); // a diagnostic: the approximation will do
    if (!(p <= alpha)) {
      return false;
    }
    warnings.add(String.format(Locale.ROOT,
        "pairs run baseline first and candidate first differ (median change %+.1f%% vs %+.1f%%,"
            + " Mann-Whitney p=%.3g): the boot order matters",
        100 * Math.expm1(VerdictEngine.median(ab)), 100 * Math.expm1(VerdictEngine.median(ba)),
        p));
    return true;
  }
}
