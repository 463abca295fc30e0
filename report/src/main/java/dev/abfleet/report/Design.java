package dev.abfleet.report;

import dev.abfleet.stats.verdict.VerdictDesign;

import dev.abfleet.model.CounterRatio;

import dev.abfleet.stats.Policy;
import java.util.List;
import java.util.Set;

/**
 * What an experiment compares and how it decides, whoever ran it.
 *
 * @param candidates arms compared with the baseline and gating, in order
 * @param ceiling the ceiling arm (compared, never gating); empty = none
 * @param metrics metric order of the report; empty = in order of first appearance
 * @param gatingMetrics metrics whose verdicts gate; empty = every metric
 * @param seed seeds the host bootstrap, so the same boots always give the same intervals
 * @param maxPairs use only the first N pairs (unpaired: the first N boots per arm); null = all
 * @param ratios counter ratios the report shows ({@link CounterRatios}); empty = the defaults
 */
public record Design(
    String experiment,
    String baseline,
    List<String> candidates,
    String ceiling,
    List<String> metrics,
    Set<String> gatingMetrics,
    Policy policy,
    long seed,
    Integer maxPairs,
    List<CounterRatio> ratios) {

  public Design {
    candidates = List.copyOf(candidates);
    ratios = ratios == null ? List.of() : List.copyOf(ratios);
    ceiling = ceiling == null ? "" : ceiling;
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
    gatingMetrics = gatingMetrics == null ? Set.of() : Set.copyOf(gatingMetrics);
  }

  /** A design that declares no counter ratios (the report shows the defaults). */
  public Design(String experiment, String baseline, List<String> candidates, String ceiling,
      List<String> metrics, Set<String> gatingMetrics, Policy policy, long seed, Integer maxPairs) {
    this(experiment, baseline, candidates, ceiling, metrics, gatingMetrics, policy, seed, maxPairs,
        List.of());
  }

  /** What the verdict needs of this design: the arms, metrics, policy, seed and pair budget. */
  public VerdictDesign verdict() {
    return new VerdictDesign(baseline, candidates, ceiling, metrics, gatingMetrics, policy, seed, maxPairs);
  }

  /** Candidates, then the ceiling: every arm compared with the baseline. */
  public List<String> compared() {
    return verdict().compared();
  }
}
