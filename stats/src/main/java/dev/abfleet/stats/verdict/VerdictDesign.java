package dev.abfleet.stats.verdict;

import dev.abfleet.stats.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What an experiment compares and how it decides.
 *
 * @param candidates arms compared with the baseline and gating, in order
 * @param ceiling the ceiling arm (compared, never gating); empty = none
 * @param metrics metric order; empty = in order of first appearance
 * @param gatingMetrics metrics whose verdicts gate; empty = every metric
 * @param seed seeds the host bootstrap, so the same boots always give the same intervals
 * @param maxPairs use only the first N pairs (unpaired: the first N boots per arm); null = all
 */
public record VerdictDesign(
    String baseline,
    List<String> candidates,
    String ceiling,
    List<String> metrics,
    Set<String> gatingMetrics,
    Policy policy,
    long seed,
    Integer maxPairs) {

  public VerdictDesign {
    candidates = List.copyOf(candidates);
    ceiling = ceiling == null ? "" : ceiling;
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
    gatingMetrics = gatingMetrics == null ? Set.of() : Set.copyOf(gatingMetrics);
  }

  /** Candidates, then the ceiling: every arm compared with the baseline. */
  public List<String> compared() {
    if (ceiling.isEmpty()) {
      return candidates;
    }
    List<String> out = new ArrayList<>(candidates);
    out.add(ceiling);
    return List.copyOf(out);
  }

  public boolean gates(String metric) {
    return gatingMetrics.isEmpty() || gatingMetrics.contains(metric);
  }
}
