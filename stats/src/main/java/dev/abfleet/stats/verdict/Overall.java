package dev.abfleet.stats.verdict;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Verdict;
import java.util.List;
import java.util.Map;

/**
 * The experiment's verdict: regressed if any gating metric regressed or a candidate fails to
 * boot significantly more often; else improved if some gating metric improved and every other
 * held; no_change if every gating metric held; else inconclusive. With host classes the class
 * rows decide (a regression on one class is a regression) and the pooled rows only summarise.
 */
final class Overall {
  private Overall() {}

  /** The wire name of the verdict; empty when there are no rows yet. */
  static String of(List<Row> rows, Map<String, BootFailureComparison> bootFailures) {
    if (rows.isEmpty()) {
      return "";
    }
    boolean byClass = rows.stream().anyMatch(r -> !r.comparison().hostClass().isEmpty());
    List<Comparison> gating = rows.stream().map(Row::comparison).filter(Comparison::gating)
        .filter(c -> !byClass || !c.hostClass().isEmpty()).toList();
    boolean bootRegressed = bootFailures.values().stream()
        .anyMatch(b -> b.verdict() == Verdict.REGRESSED);
    if (bootRegressed || gating.stream().anyMatch(c -> c.verdict() == Verdict.REGRESSED)) {
      return Verdict.REGRESSED.wire();
    }
    if (gating.isEmpty()) {
      return Verdict.INCONCLUSIVE.wire();
    }
    boolean heldOrImproved = gating.stream()
        .allMatch(c -> c.verdict() == Verdict.IMPROVED || c.verdict() == Verdict.NO_CHANGE);
    if (!heldOrImproved) {
      return Verdict.INCONCLUSIVE.wire();
    }
    return gating.stream().anyMatch(c -> c.verdict() == Verdict.IMPROVED)
        ? Verdict.IMPROVED.wire() : Verdict.NO_CHANGE.wire();
  }
}
