package dev.abfleet.controller.bisect;

import dev.abfleet.stats.Policy;
import java.util.List;

/**
 * A probe that is one sequential experiment ({@link ProbeRunner}): the controller adds pairs
 * look by look and stops at the first look where the metric is decided. Its verdict maps to the
 * probe's outcome: regressed is BAD; improved or no_change is GOOD; inconclusive at the last look
 * is GOOD only when the interval excludes a regression beyond the noise threshold
 * (non-inferiority: a bisect asks "did this step regress", not "did it change"), else
 * INCONCLUSIVE.
 */
public final class SequentialProbe implements Probe {
  private final ProbeRunner runner;
  private final Policy policy;

  /** @param policy noise threshold, alpha and the looks (ascending cumulative pair counts) */
  public SequentialProbe(ProbeRunner runner, Policy policy) {
    if (policy.looks().isEmpty()) {
      throw new IllegalArgumentException("a sequential probe needs looks, e.g. 10, 15, 20");
    }
    this.runner = runner;
    this.policy = policy;
  }

  @Override
  public ProbeResult compare(int good, int candidate) {
    return result(runner.run(good, candidate, policy), policy);
  }

  /** The probe's outcome and report note from its finished experiment under {@code policy}. */
  public static ProbeResult result(ProbeRunner.Finished f, Policy policy) {
    Outcome o = outcome(f, policy);
    String at = at(f.pairs(), policy);
    String note = switch (o) {
      case BAD -> f.verdict() + at;
      case GOOD -> f.verdict().equals("inconclusive")
          ? "inconclusive" + at + ", but no regression beyond " + pct(policy.noiseThreshold()) + " (interval "
              + (f.better().equals("lower") ? "high end" : "low end") + " within it)"
          : f.verdict() + at;
      case INCONCLUSIVE -> "inconclusive" + at + (f.reasons().isEmpty() ? "" : ": " + String.join(", ", f.reasons()));
    };
    return new ProbeResult(o, f.experimentId(), f.pairs(), f.boots(), f.change(), f.ciLow(), f.ciHigh(), note);
  }

  /** Regressed: BAD. Improved or no change, or non-inferior by the interval: GOOD. */
  static Outcome outcome(ProbeRunner.Finished f, Policy policy) {
    switch (f.verdict()) {
      case "regressed" -> {
        return Outcome.BAD;
      }
      case "improved", "no_change" -> {
        return Outcome.GOOD;
      }
      default -> {
        double delta = policy.noiseThreshold();
        boolean nonInferior = f.better().equals("lower") ? f.ciHigh() <= delta : f.ciLow() >= -delta;
        return Double.isFinite(f.ciLow()) && Double.isFinite(f.ciHigh()) && nonInferior
            ? Outcome.GOOD : Outcome.INCONCLUSIVE;
      }
    }
  }

  /** " at look 2 of 3 (15 pairs)", or " after N pairs" when N is none of the looks. */
  private static String at(int pairs, Policy policy) {
    List<Integer> looks = policy.looks();
    int k = looks.indexOf(pairs);
    return k < 0 ? " after " + pairs + " pairs" : " at look " + (k + 1) + " of " + looks.size() + " (" + pairs + " pairs)";
  }

  private static String pct(double r) {
    return String.format(java.util.Locale.ROOT, "%.1f%%", 100 * r);
  }
}
