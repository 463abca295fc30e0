package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Group-sequential plan of an experiment: the looks its policy declares (cumulative pair
 * counts) and the alpha spent at each, so that stopping as soon as the metrics are decided
 * does not inflate the false-positive rate.
 *
 * <p>Alpha is spent with the Lan-DeMets O'Brien-Fleming function at the planned information
 * fractions looks[k] / looks[last] ({@link Spending}). At look k a metric's test uses the
 * nominal level of that look for its share of alpha, and its interval is a repeated confidence
 * interval at that level: the intervals of all looks cover the true change together with
 * probability 1 - share, so verdicts read off them (improved, regressed, no change, and holds,
 * which reads only the interval's worse end: one-sided at share/2) keep their error rates
 * whenever the experiment stops. A metric that holds is decided, so an experiment whose gating
 * metrics all improved, hold or did not change stops at that look. Across gating metrics, Holm's step-down is
 * applied at each look's nominal levels (a metric decided earlier passes its alpha on, as in
 * the graphical procedures of Maurer and Bretz 2013); intervals use the Bonferroni share
 * alpha/m.
 *
 * <p><b>Futility.</b> With a futility effect in the policy, a gating metric still undecided at a
 * look is called no change there when its repeated interval at level 1 - 2 beta_k (beta spent
 * linearly over the same fractions, so the futility intervals of all looks cover the true
 * change together with probability at least 1 - 2 beta) lies inside ±max(futility effect,
 * noise threshold). A metric that really changed by the futility effect is so called with
 * probability at most beta. The boundary is non-binding: the efficacy levels are computed as if
 * it did not exist, so stopping for futility can only lower the false-positive rate.
 *
 * <p>Typical use by the experiment entity: after each pair, if the pair count equals
 * {@code looks().get(k)}, call {@code decide(k, data)} with all pairs so far and stop when
 * {@link Decision#stop()}: every gating metric is decided, or one regressed (the experiment's
 * outcome is then known), or this was the last look. The call is stateless: earlier looks are replayed on prefixes of
 * the same arrays (index = pair), so the same data always give the same decision, live or
 * offline. Thread-safe.
 */
public final class SequentialPlan {
  private final Policy policy;
  private final List<Integer> looks;
  private final double[] fractions;
  /** Nominal levels per (share of alpha, fractions); plans are cheap, boundaries are not. */
  private static final Map<List<Double>, double[]> NOMINAL = new ConcurrentHashMap<>();

  private SequentialPlan(Policy policy) {
    this.policy = policy;
    this.looks = policy.looks();
    int k = Math.max(1, looks.size());
    this.fractions = new double[k];
    for (int i = 0; i < k; i++) {
      fractions[i] = looks.isEmpty() ? 1.0 : looks.get(i) / (double) looks.get(k - 1);
    }
  }

  /**
   * The plan for a policy's looks and alpha. No looks: one look at the end (fixed sample
   * size, nominal level = alpha). Invalid looks or alpha fall back to the defaults, as in
   * {@link VerdictEngine#compare}.
   */
  public static SequentialPlan of(Policy policy) {
    return new SequentialPlan(VerdictEngine.usable(policy, new ArrayList<>()));
  }

  /** The plan for these looks (ascending pair counts) and family-wise alpha, Δ = 2%. */
  public static SequentialPlan of(List<Integer> looks, double alpha) {
    return of(new Policy(Policy.DEFAULT.noiseThreshold(), alpha, looks));
  }

  /** The looks (pair counts); empty for a fixed sample size. */
  public List<Integer> looks() {
    return looks;
  }

  /** Number of looks, at least 1. */
  public int lookCount() {
    return fractions.length;
  }

  /** Last look whose pair count {@code pairs} reaches; 0 when it reaches none. */
  public int lookReachedBy(int pairs) {
    int k = 0;
    for (int i = 0; i < looks.size(); i++) {
      if (pairs >= looks.get(i)) {
        k = i;
      }
    }
    return k;
  }

  /**
   * Two-sided nominal level at which a test with overall level {@code share} rejects at
   * {@code look} (0-based). Equals share for a single look.
   */
  public double nominalAlpha(int look, double share) {
    if (fractions.length == 1) {
      return share;
    }
    List<Double> key = new ArrayList<>(fractions.length + 1);
    key.add(share);
    Arrays.stream(fractions).forEach(key::add);
    double[] levels = NOMINAL.computeIfAbsent(key, k -> {
      double[] c = Spending.boundaries(share, fractions);
      return Arrays.stream(c).map(Spending::nominal).toArray();
    });
    return levels[Math.max(0, Math.min(look, levels.length - 1))];
  }

  /**
   * Two-sided level of the futility interval at {@code look}: 2 beta spent linearly over the
   * looks, each side a one-sided test at beta_k of "the change is the futility effect". NaN
   * when the policy has no futility stop.
   */
  public double futilityLevel(int look) {
    if (!policy.futility()) {
      return Double.NaN;
    }
    double twoBeta = 2 * policy.futilityBeta();
    if (fractions.length == 1) {
      return twoBeta;
    }
    List<Double> key = new ArrayList<>(fractions.length + 2);
    key.add(-1.0); // marks the linear function: efficacy keys start with a share > 0
    key.add(twoBeta);
    Arrays.stream(fractions).forEach(key::add);
    double[] levels = NOMINAL.computeIfAbsent(key, k -> {
      double[] c = Spending.boundaries(twoBeta, fractions, Spending.Function.LINEAR);
      return Arrays.stream(c).map(Spending::nominal).toArray();
    });
    return levels[Math.max(0, Math.min(look, levels.length - 1))];
  }

  /** {@link #decide(int, List, long)} with {@link VerdictEngine#DEFAULT_SEED}. */
  public Decision decide(int look, List<MetricInput> data) {
    return decide(look, data, VerdictEngine.DEFAULT_SEED);
  }

  /**
   * Judges the data at look {@code look} (0-based; clamped to the plan). {@code data} holds
   * every pair so far, index = pair; earlier looks are replayed on the first looks[j] pairs.
   *
   * @param seed seed of the host bootstrap
   */
  public Decision decide(int look, List<MetricInput> data, long seed) {
    return replay(Math.max(0, Math.min(look, lookCount() - 1)), data, seed, false);
  }

  /**
   * Runs the looks in order on prefixes of {@code data} (index = pair), as the experiment
   * entity would, and returns the decision at the first look that stops (the last look at the
   * latest). Same result as calling {@link #decide} at each look with the pairs of that look,
   * at a fraction of the cost: for simulations and offline replays.
   */
  public Decision firstStop(List<MetricInput> data, long seed) {
    return replay(lookCount() - 1, data, seed, true);
  }

  private Decision replay(int last, List<MetricInput> data, long seed, boolean stopEarly) {
    int size = data.size();
    boolean[] rejected = new boolean[size];
    Integer[] decidedAt = new Integer[size];
    Arrays.fill(decidedAt, -1);
    Comparison[] kept = new Comparison[size];
    for (int k = 0; ; k++) {
      int atLook = k;
      List<MetricInput> prefix = (k == last && !stopEarly) || looks.isEmpty() ? data
          : data.stream().map(in -> in.firstN(looks.get(atLook))).toList();
      String where = "look " + (k + 1) + " of " + lookCount()
          + (looks.isEmpty() ? "" : " (" + looks.get(k) + " pairs)");
      List<Comparison> current = VerdictEngine.evaluate(prefix, policy, seed,
          a -> nominalAlpha(atLook, a), rejected, futilityLevel(k), where);
      for (int i = 0; i < size; i++) {
        Comparison c = current.get(i);
        if (decidedAt[i] < 0 && c.verdict() != Verdict.INCONCLUSIVE) {
          decidedAt[i] = k;
          kept[i] = c;
          rejected[i] = c.decisive();
        }
      }
      if (k == last || stopEarly) {
        Decision d = snapshot(k, data, current, kept, decidedAt);
        if (k == last || d.stop()) {
          return d;
        }
      }
    }
  }

  /** The decision after look k: sticky comparisons for decided metrics, current for others. */
  private Decision snapshot(int k, List<MetricInput> data, List<Comparison> current,
      Comparison[] kept, Integer[] decidedAt) {
    List<Comparison> out = new ArrayList<>(data.size());
    boolean anyGating = data.stream().anyMatch(MetricInput::gating);
    boolean allDecided = true;
    boolean regressed = false;
    for (int i = 0; i < data.size(); i++) {
      Comparison c = current.get(i);
      if (kept[i] != null) {
        c = decidedAt[i] == k ? kept[i] : kept[i].withWarningsFirst(List.of("decided at look "
            + (decidedAt[i] + 1) + " of " + lookCount() + " ("
            + looks.get(decidedAt[i]) + " pairs)"));
      }
      out.add(c);
      boolean counts = data.get(i).gating() || !anyGating;
      allDecided &= !counts || decidedAt[i] >= 0;
      regressed |= counts && c.verdict() == Verdict.REGRESSED;
    }
    return new Decision(k, allDecided || regressed || k == lookCount() - 1, List.copyOf(out),
        List.of(decidedAt.clone()));
  }
}
