package dev.abfleet.cli.analyze;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Policy;
import dev.abfleet.stats.Verdict;
import java.util.List;
import java.util.Map;

/**
 * The verdicts of one experiment.
 *
 * @param arms candidate arm of each comparison, parallel to {@code comparisons}
 * @param overall regressed if any gating metric regressed or a candidate fails to boot
 *     significantly more often; else improved if some gating metric improved and every other
 *     held; no_change if every gating metric held; else inconclusive. With host classes the
 *     class rows decide and the pooled rows are left out
 */
record ExperimentResult(
    String experiment,
    String baseline,
    List<String> candidates,
    boolean paired,
    int pairs,
    Policy policy,
    List<Comparison> comparisons,
    List<String> arms,
    Map<String, BootFailureComparison> bootFailures,
    String overall) {

  static String overall(List<Comparison> comparisons,
      Map<String, BootFailureComparison> bootFailures) {
    boolean byClass = comparisons.stream().anyMatch(c -> !c.hostClass().isEmpty());
    List<Comparison> gating = comparisons.stream().filter(Comparison::gating)
        .filter(c -> !byClass || !c.hostClass().isEmpty()).toList();
    boolean bootRegressed = bootFailures.values().stream()
        .anyMatch(b -> b.verdict() == Verdict.REGRESSED);
    if (bootRegressed || gating.stream().anyMatch(c -> c.verdict() == Verdict.REGRESSED)) {
      return Verdict.REGRESSED.wire();
    }
    if (gating.isEmpty()) {
      return Verdict.INCONCLUSIVE.wire();
    }
    boolean allHeldOrImproved = gating.stream().allMatch(c -> c.verdict() == Verdict.IMPROVED
        || c.verdict() == Verdict.NO_CHANGE);
    if (gating.stream().anyMatch(c -> c.verdict() == Verdict.IMPROVED)) {
      return allHeldOrImproved ? Verdict.IMPROVED.wire() : Verdict.INCONCLUSIVE.wire();
    }
    return allHeldOrImproved ? Verdict.NO_CHANGE.wire() : Verdict.INCONCLUSIVE.wire();
  }

  /** A gating metric regressed, or a candidate fails to boot significantly more often. */
  boolean gateFails() {
    return overall.equals(Verdict.REGRESSED.wire());
  }
}
