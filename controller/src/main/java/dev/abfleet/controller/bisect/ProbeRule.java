package dev.abfleet.controller.bisect;

import dev.abfleet.stats.Policy;
import java.util.List;
import java.util.Locale;

/**
 * Which end of the range a probe resembles. Every probe is an A/B of the good endpoint (kernel
 * 0) against the probed kernel; before the first probe the endpoints themselves are compared
 * (kernel 0 against the last), which measures the regression R to find. With f the stated
 * fraction (default {@value #DEFAULT_FRACTION}) and the probe's interval at its deciding look:
 *
 * <ul>
 *   <li><b>good</b> when the interval rules out f·R: its worse end is better than f·R;
 *   <li><b>bad</b> when it rules out no change: its better end is still worse than 0;
 *   <li>both at once (a small change of its own, nearer the good end): good;
 *   <li>neither at the last look: inconclusive, and the search stops with the range open.
 * </ul>
 *
 * The probe's experiment runs with f·|R| as its noise threshold, so the experiment's own
 * sequential stop (regressed beyond f·|R|, or equivalent within ±f·|R|) is a stop this rule
 * decides: pairs are added look by look while the probe is neither.
 *
 * <p>Error rates, with the interval at two-sided level 1 - alpha_k at the deciding look: a good
 * probe (true change 0) is called bad only when its interval misses 0 on the worse side, at most
 * alpha/2 over the looks (alpha is spent over them); a bad probe (true change R) is called good
 * only when its interval misses R on the better side by (1 - f)·|R|, less than alpha/2. The
 * simulated rates are in BENCHMARKS.md ("Bisect probes").
 */
public final class ProbeRule {
  /** The fraction of the endpoints' regression a good probe's interval rules out, when none is given. */
  public static final double DEFAULT_FRACTION = 0.5;
  /** Smallest noise threshold a probe's experiment gets (f·|R| of a tiny R would be 0). */
  static final double MIN_PROBE_THRESHOLD = 1e-4;

  private ProbeRule() {}

  /** {@code fraction}, or the default for 0 (a request that gave none). */
  public static double fractionOrDefault(double fraction) {
    return fraction == 0 ? DEFAULT_FRACTION : fraction;
  }

  /**
   * The endpoints' experiment (kernel 0 against the last): BAD when its interval rules out no
   * change on the worse side (the regression to find is there); else INCONCLUSIVE, which stops
   * the search: there is nothing to bisect.
   */
  public static ProbeResult endpoints(ProbeRunner.Finished f, Policy policy) {
    boolean higher = !"lower".equals(f.better());
    boolean finite = Double.isFinite(f.ciLow()) && Double.isFinite(f.ciHigh());
    double betterEnd = higher ? f.ciHigh() : f.ciLow();
    boolean regressed = finite && (higher ? betterEnd < 0 : betterEnd > 0);
    String rule = !finite ? "endpoints: no interval for the change; the regression cannot be measured"
        : regressed ? "endpoints: regression R = " + pct(f.change()) + " shown (better end " + pct(betterEnd)
            + " is worse than no change)"
        : "endpoints: no regression shown (" + pct(f.change()) + " [" + pct(f.ciLow()) + ", " + pct(f.ciHigh())
            + "] does not rule out no change)";
    return new ProbeResult(regressed ? Outcome.BAD : Outcome.INCONCLUSIVE, f.experimentId(), f.pairs(), f.boots(),
        f.change(), f.ciLow(), f.ciHigh(), note(f, policy), rule);
  }

  /**
   * A probe against the good endpoint, given the endpoints' regression {@code endpointChange}
   * (R, relative; negative for a higher-is-better metric) and the fraction f.
   */
  public static ProbeResult probe(ProbeRunner.Finished f, Policy policy, double endpointChange, double fraction) {
    boolean higher = !"lower".equals(f.better());
    double line = fraction * endpointChange;
    double worseEnd = higher ? f.ciLow() : f.ciHigh();
    double betterEnd = higher ? f.ciHigh() : f.ciLow();
    // Direction-aware (negative = worse): a lower-is-better metric's rise is a fall here.
    double sign = higher ? 1 : -1;
    Outcome o = classify(sign * worseEnd, sign * betterEnd, sign * endpointChange, fraction);
    boolean alsoBad = o == Outcome.GOOD && sign * betterEnd < 0;
    String of = fmt(fraction) + " x endpoints' " + pct(endpointChange) + " = " + pct(line);
    String rule = switch (o) {
      case GOOD -> "good: worse end " + pct(worseEnd) + " rules out " + of
          + (alsoBad ? " (it also rules out no change: a smaller change of its own)" : "");
      case BAD -> "bad: better end " + pct(betterEnd) + " rules out no change";
      case INCONCLUSIVE -> Double.isFinite(worseEnd) && Double.isFinite(betterEnd)
          ? "inconclusive: worse end " + pct(worseEnd) + " does not rule out " + of + ", better end "
              + pct(betterEnd) + " does not rule out no change"
          : "inconclusive: no interval for the change";
    };
    return new ProbeResult(o, f.experimentId(), f.pairs(), f.boots(), f.change(), f.ciLow(), f.ciHigh(),
        note(f, policy), rule);
  }

  /**
   * The rule on a direction-aware interval [worseEnd, betterEnd] of the probe's change (negative
   * = worse, whatever the metric's unit) and the endpoints' regression R (direction-aware, so
   * negative): GOOD when the worse end is better than f·R, else BAD when the better end is worse
   * than 0, else INCONCLUSIVE; INCONCLUSIVE too for a missing (non-finite) interval or an R that
   * is not a regression. Every bisect, on the controller or over a git range, classifies with this.
   */
  public static Outcome classify(double worseEnd, double betterEnd, double endpointRegression, double fraction) {
    if (!Double.isFinite(worseEnd) || !Double.isFinite(betterEnd)) {
      return Outcome.INCONCLUSIVE;
    }
    if (endpointRegression < 0 && worseEnd > fraction * endpointRegression) {
      return Outcome.GOOD;
    }
    return betterEnd < 0 ? Outcome.BAD : Outcome.INCONCLUSIVE;
  }

  /**
   * The verdict policy of a probe's experiment: the bisect's alpha and looks, with f·|R| as its
   * noise threshold so that the experiment stops at the first look where this rule decides.
   */
  public static Policy probePolicy(Policy bisect, double endpointChange, double fraction) {
    double band = Math.min(0.99, Math.max(MIN_PROBE_THRESHOLD, fraction * Math.abs(endpointChange)));
    return new Policy(band, bisect.alpha(), bisect.looks());
  }

  /** "regressed at look 1 of 3 (10 pairs)"; the reasons of an inconclusive verdict appended. */
  private static String note(ProbeRunner.Finished f, Policy policy) {
    List<Integer> looks = policy.looks();
    int k = looks.indexOf(f.pairs());
    String at = k < 0 ? " after " + f.pairs() + " pairs" : " at look " + (k + 1) + " of " + looks.size() + " ("
        + f.pairs() + " pairs)";
    return f.verdict() + at + (f.verdict().equals("inconclusive") && !f.reasons().isEmpty()
        ? ": " + String.join(", ", f.reasons()) : "");
  }

  private static String pct(double r) {
    return Double.isFinite(r) ? String.format(Locale.ROOT, "%+.1f%%", 100 * r) : "n/a";
  }

  private static String fmt(double f) {
    return String.format(Locale.ROOT, "%.2f", f).replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
