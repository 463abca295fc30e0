package dev.abfleet.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a design can decide anything, known before the first boot. The engine's tests are
 * exact sign-flip tests on whole pairs, so with n pairs the smallest two-sided p is 2^(1-n)
 * (every difference of one sign); a verdict, and the interval that no_change and holds are read
 * from, needs that floor at or below the level the design gives the metric:
 * <ul>
 *   <li>a fixed design of 2 to {@link JointSignFlip#EXACT_MAX_N} pairs with one candidate decides
 *       its gating metrics together ({@link SmallFamily}): level alpha whatever their number;
 *   <li>otherwise Holm over the gating family (gating metrics x candidates): the first metric is
 *       tested at alpha / m, and with looks at that share's nominal level of the look
 *       ({@link SequentialPlan#nominalAlpha}), which O'Brien-Fleming spending keeps small early;
 *   <li>with looks and a futility effect, no_change is also reached by the futility interval, at
 *       {@link SequentialPlan#futilityLevel} of the look;
 *   <li>non-gating rows (metrics outside the gate, a ceiling arm) are tested alone at the look's
 *       nominal alpha.
 * </ul>
 * A design where no row can reach any verdict at any look is refused; one where the gating
 * metrics cannot be decided, or whose first look cannot decide, gets a warning naming the pairs
 * needed, and so does a joint family too small to decide even the most extreme change of one
 * metric whatever the others do ({@link #jointCertain}). Whether no_change is reached also
 * depends on the noise, which is not known here. Pure.
 */
public final class DesignCheck {
  private DesignCheck() {}

  /** What to do with a design. */
  public enum Outcome {
    /** Every kind of verdict can be reached. */
    OK,
    /** Runs, but some outcome cannot be reached: {@link Result#warnings()} says which. */
    WARN,
    /** No verdict on any metric can be reached: do not start. */
    REFUSE
  }

  /**
   * A design as submitted.
   *
   * @param looks cumulative pair counts of the looks, ascending; one entry = a fixed design of
   *     that many pairs
   * @param alpha family-wise significance level, in (0, 1)
   * @param gatingMetrics gating metrics per candidate, at least 1 (a workload whose metrics are
   *     known only once it ran: 1, the most lenient)
   * @param candidates candidate arms compared with the baseline (x host classes when judged per
   *     class), at least 1
   * @param nonGating true when some row is judged outside the gating family (a non-gating metric
   *     or a ceiling arm)
   * @param futilityEffect the policy's futility effect (0 = no futility stop; ignored without
   *     looks)
   * @param futilityBeta the policy's futility error bound, in (0, 0.5)
   * @param sequential true when the looks were declared (even one: the engine then judges it with
   *     the sequential plan, Holm and futility, never the joint small-sample family); false for a
   *     fixed design of looks[0] pairs
   */
  public record Design(List<Integer> looks, double alpha, int gatingMetrics, int candidates,
      boolean nonGating, double futilityEffect, double futilityBeta, boolean sequential) {
    public Design {
      looks = List.copyOf(looks);
      gatingMetrics = Math.max(1, gatingMetrics);
      candidates = Math.max(1, candidates);
      sequential |= looks.size() > 1;
    }

    /** Declared looks ({@code sequential}), or a fixed design when {@code looks} holds one count. */
    public Design(List<Integer> looks, double alpha, int gatingMetrics, int candidates, boolean nonGating,
        double futilityEffect, double futilityBeta) {
      this(looks, alpha, gatingMetrics, candidates, nonGating, futilityEffect, futilityBeta, false);
    }

    /** A fixed design of {@code pairs} pairs. */
    public static Design fixed(int pairs, double alpha, int gatingMetrics, int candidates,
        boolean nonGating) {
      return new Design(List.of(pairs), alpha, gatingMetrics, candidates, nonGating, 0,
          Policy.DEFAULT_FUTILITY_BETA);
    }

    /** Hypotheses in the gating family. */
    public int family() {
      return gatingMetrics * candidates;
    }

    /** True for a fixed design: one look at the end, none declared. */
    public boolean isFixed() {
      return !sequential;
    }

    /** Pairs of the last look: the most pairs run. */
    public int lastPairs() {
      return looks.get(looks.size() - 1);
    }

    String describe() {
      return isFixed() ? "pairs " + looks.get(0) : "looks " + looks;
    }

    String familyText() {
      String metrics = gatingMetrics + " gating " + (gatingMetrics == 1 ? "metric" : "metrics");
      return (candidates == 1 ? metrics : metrics + " x " + candidates + " candidates") + " at alpha "
          + number(alpha);
    }
  }

  /**
   * The check's answer.
   *
   * @param outcome ok, warn or refuse
   * @param design the design checked
   * @param gatingPairs the fewest pairs (fixed) or last look (these looks' fractions) at which a
   *     gating metric can be called improved, regressed, no_change or holds
   * @param anyPairs the fewest pairs (fixed) or last look at which any row can reach a verdict
   * @param firstDecidingLook 1-based number of the first look at which a gating metric can be
   *     decided (by efficacy or futility); 0 when none can
   * @param warnings one line each, empty unless {@link Outcome#WARN}
   */
  public record Result(Outcome outcome, Design design, int gatingPairs, int anyPairs,
      int firstDecidingLook, List<String> warnings) {
    public Result {
      warnings = List.copyOf(warnings);
    }

    /**
     * Why the design is refused, with the fix in the caller's words: e.g. {@code refusal("--pairs",
     * "--looks")} = "pairs 1 cannot decide (the smallest p of 1 pair is 1): with 4 gating metrics at
     * alpha 0.05 the smallest design that can is 6 pairs; use --pairs 6 or more". Empty unless
     * refused.
     */
    public String refusal(String pairsKey, String looksKey) {
      if (outcome != Outcome.REFUSE) {
        return "";
      }
      String head = design.describe() + " cannot decide (the smallest p of " + design.lastPairs() + " "
          + (design.lastPairs() == 1 ? "pair" : "pairs") + " is " + number(floor(design.lastPairs())) + "): with "
          + design.familyText() + " ";
      if (design.isFixed()) {
        return head + "the smallest design that can is " + gatingPairs + " pairs; use " + pairsKey + " "
            + gatingPairs + " or more";
      }
      return head + "these looks need a last look of " + gatingPairs + " pairs or more; use " + looksKey
          + " ending at " + gatingPairs + " or more (or " + pairsKey + " " + fixedMinimum(design) + ")";
    }
  }

  /** Checks a design: see the class comment for the rule. */
  public static Result check(Design d) {
    int looks = d.looks().size();
    SequentialPlan plan = d.isFixed() ? null : SequentialPlan.of(policy(d));
    int firstEfficacy = 0;
    int firstDeciding = 0;
    boolean anyDecides = false;
    for (int k = 0; k < looks; k++) {
      int n = d.looks().get(k);
      boolean efficacy = floor(n) <= gatingLevel(d, plan, k, n);
      boolean futility = plan != null && policy(d).futility() && floor(n) <= plan.futilityLevel(k);
      if (efficacy && firstEfficacy == 0) {
        firstEfficacy = k + 1;
      }
      if ((efficacy || futility) && firstDeciding == 0) {
        firstDeciding = k + 1;
      }
      anyDecides |= efficacy || futility || (d.nonGating() && floor(n) <= single(d, plan, k));
    }
    int gatingPairs = d.isFixed() ? fixedMinimum(d) : fewest(gatingLevel(d, plan, looks - 1, Integer.MAX_VALUE));
    int anyPairs = d.nonGating() ? Math.min(gatingPairs, fewest(single(d, plan, looks - 1))) : gatingPairs;
    if (!anyDecides) {
      return new Result(Outcome.REFUSE, d, gatingPairs, anyPairs, 0, List.of());
    }
    List<String> warnings = new ArrayList<>();
    String need = d.isFixed() ? gatingPairs + " pairs" : "a last look of " + gatingPairs + " pairs";
    if (firstDeciding == 0) {
      warnings.add(d.describe() + ": no gating metric can be decided with " + d.familyText()
          + " (only the rows outside the gate can); the gate needs " + need + " or more");
    } else {
      if (firstDeciding > 1) {
        warnings.add(d.describe() + ": " + looksBefore(firstDeciding) + " cannot decide; the first look that"
            + " can is look " + firstDeciding + " (" + d.looks().get(firstDeciding - 1) + " pairs)");
      }
      int sure = jointCertain(d);
      if (firstEfficacy != 0 && sure > d.lastPairs()) {
        int n = d.lastPairs();
        warnings.add(d.describe() + ": with " + d.familyText() + " even a large change on one metric is decided"
            + " only when no other gating metric's pairs line up as extremely (its adjusted p can reach "
            + d.gatingMetrics() + "/" + (1 << (n - 1)) + "); " + sure + " pairs decide it whatever the others do");
      }
      if (firstEfficacy == 0) {
        warnings.add(d.describe() + ": improved and regressed cannot be reached with " + d.familyText()
            + ", only a futility stop (no_change); they need " + need + " or more");
      } else if (firstEfficacy > firstDeciding) {
        warnings.add(d.describe() + ": " + looksBefore(firstEfficacy) + " can only stop for futility"
            + " (no_change; O'Brien-Fleming spends little alpha early); improved or regressed first at look "
            + firstEfficacy + " (" + d.looks().get(firstEfficacy - 1) + " pairs)");
      }
    }
    return new Result(warnings.isEmpty() ? Outcome.OK : Outcome.WARN, d, gatingPairs, anyPairs,
        firstDeciding, warnings);
  }

  private static String looksBefore(int look) {
    return look == 2 ? "look 1" : "looks 1 to " + (look - 1);
  }

  /** The smallest two-sided p of an exact sign-flip test on n pairs: 2^(1-n). */
  public static double floor(int n) {
    return Math.scalb(1.0, 1 - n);
  }

  /**
   * For a fixed design judged by the joint small-sample family: the fewest pairs at which the most
   * extreme change of one metric is decided whatever the other gating metrics do; 0 for other
   * designs. Each metric's largest statistic is reached by at most one sign pattern (pair 0 kept),
   * so the most extreme metric's adjusted p is at most m / 2^(n-1): certain once that is at most
   * alpha, while at fewer pairs it depends on how the other metrics' pairs line up.
   */
  static int jointCertain(Design d) {
    if (!d.isFixed() || !joint(d, true, d.lastPairs())) {
      return 0;
    }
    for (int n = 2; n <= JointSignFlip.EXACT_MAX_N; n++) {
      if (d.gatingMetrics() * floor(n) <= d.alpha()) {
        return n;
      }
    }
    return JointSignFlip.EXACT_MAX_N;
  }

  /** The fewest pairs whose floor reaches {@code level}. */
  static int fewest(double level) {
    int n = 2;
    while (floor(n) > level && n < 10_000) {
      n++;
    }
    return n;
  }

  /** The fewest pairs of a fixed design of this family at which a gating metric can be decided. */
  static int fixedMinimum(Design d) {
    for (int n = 2; n < 10_000; n++) {
      if (floor(n) <= gatingLevel(d, null, 0, n)) {
        return n;
      }
    }
    return 10_000;
  }

  /**
   * Level of the first gating test at look k of n pairs: alpha for the joint small-sample test,
   * else Holm's first step alpha/m at the look's nominal level.
   */
  static double gatingLevel(Design d, SequentialPlan plan, int k, int n) {
    if (plan == null && joint(d, true, n)) {
      return d.alpha();
    }
    double share = d.alpha() / d.family();
    return plan == null ? share : plan.nominalAlpha(k, share);
  }

  /** Level of a row outside the gate at look k. */
  private static double single(Design d, SequentialPlan plan, int k) {
    return plan == null ? d.alpha() : plan.nominalAlpha(k, d.alpha());
  }

  /** The fixed design's gating metrics go to {@link SmallFamily}: one candidate, 2..16 pairs. */
  static boolean joint(Design d, boolean fixed, int n) {
    return fixed && d.candidates() == 1 && n >= 2 && n <= JointSignFlip.EXACT_MAX_N;
  }

  private static Policy policy(Design d) {
    return new Policy(Policy.DEFAULT.noiseThreshold(), d.alpha(), d.isFixed() ? List.of() : d.looks(),
        d.futilityEffect(), d.futilityBeta());
  }

  /** 0.05 -> "0.05", 2^-5 -> "0.03125", 1.9e-6 -> "1.9e-06". */
  static String number(double v) {
    if (v >= 1e-4) {
      return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }
    return String.format(Locale.ROOT, "%.2g", v);
  }
}
