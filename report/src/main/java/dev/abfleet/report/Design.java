package dev.abfleet.report;

import dev.abfleet.model.CounterRatio;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.verdict.VerdictDesign;
import java.util.List;
import java.util.Set;

/**
 * What an experiment compares and how it decides, whoever ran it: the verdict's design (arms,
 * metrics, policy, seed, pair budget) with what only a report needs, its name and counter ratios.
 *
 * @param experiment the experiment's id or name as the report titles it
 * @param verdict what the verdict needs of this design
 * @param ratios counter ratios the report shows ({@link CounterRatios}); empty = the defaults
 */
public record Design(String experiment, VerdictDesign verdict, List<CounterRatio> ratios) {

  public Design {
    ratios = ratios == null ? List.of() : List.copyOf(ratios);
  }

  /** See {@link VerdictDesign} for the arms, metrics, policy, seed and pair budget. */
  public Design(String experiment, String baseline, List<String> candidates, String ceiling,
      List<String> metrics, Set<String> gatingMetrics, Policy policy, long seed, Integer maxPairs,
      List<CounterRatio> ratios) {
    this(experiment, new VerdictDesign(baseline, candidates, ceiling, metrics, gatingMetrics, policy,
        seed, maxPairs), ratios);
  }

  /** A design that declares no counter ratios (the report shows the defaults). */
  public Design(String experiment, String baseline, List<String> candidates, String ceiling,
      List<String> metrics, Set<String> gatingMetrics, Policy policy, long seed, Integer maxPairs) {
    this(experiment, baseline, candidates, ceiling, metrics, gatingMetrics, policy, seed, maxPairs,
        List.of());
  }

  public String baseline() {
    return verdict.baseline();
  }

  public List<String> candidates() {
    return verdict.candidates();
  }

  public String ceiling() {
    return verdict.ceiling();
  }

  public List<String> metrics() {
    return verdict.metrics();
  }

  public Set<String> gatingMetrics() {
    return verdict.gatingMetrics();
  }

  public Policy policy() {
    return verdict.policy();
  }

  public long seed() {
    return verdict.seed();
  }

  public Integer maxPairs() {
    return verdict.maxPairs();
  }

  /** Candidates, then the ceiling: every arm compared with the baseline. */
  public List<String> compared() {
    return verdict.compared();
  }
}
