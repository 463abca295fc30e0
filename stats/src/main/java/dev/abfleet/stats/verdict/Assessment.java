package dev.abfleet.stats.verdict;

import dev.abfleet.stats.verdict.Assessor;

import dev.abfleet.stats.BootFailureComparison;
import java.util.List;
import java.util.Map;

/**
 * The verdicts of one experiment: what {@link Assessor} makes of its boots.
 *
 * @param paired true when every boot carries host and pair (signed-rank on pairs), else two
 *     independent samples per arm
 * @param pairs pairs used (the most of any candidate); 0 when unpaired
 * @param rows per compared arm and metric: a pooled row, then one per host class when the pairs
 *     span several classes
 * @param bootFailures per compared arm (in arm order): its boot failure rate against the
 *     baseline's
 * @param classPairs host class -> pairs in it; empty unless the pairs span several classes
 * @param overall {@link Overall}; empty = nothing to decide yet
 */
public record Assessment(
    boolean paired,
    int pairs,
    List<Row> rows,
    Map<String, BootFailureComparison> bootFailures,
    Map<String, Integer> classPairs,
    String overall) {

  public static final Assessment EMPTY = new Assessment(true, 0, List.of(), Map.of(), Map.of(), "");

  public Assessment {
    rows = List.copyOf(rows);
    bootFailures = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(bootFailures));
    classPairs = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(classPairs));
  }

  /** True when the rows are per host class (with pooled rows). */
  public boolean byClass() {
    return rows.stream().anyMatch(r -> !r.comparison().hostClass().isEmpty());
  }

  /** Pooled rows whose host classes reached different verdicts. */
  public boolean classHeterogeneity() {
    return rows.stream().anyMatch(r -> r.comparison().hostClass().isEmpty()
        && r.comparison().reasons().contains(dev.abfleet.stats.Reasons.CLASS_HETEROGENEITY));
  }

  /**
   * Why the experiment is regressed beyond its rows: {@code boot_failures} when a candidate
   * fails to boot significantly more often than the baseline, whatever its metrics say; empty
   * otherwise. Derived from {@link #bootFailures}, so every path that carries those (the wire
   * included) says the same.
   */
  public List<String> overallReasons() {
    boolean boots = bootFailures.values().stream()
        .anyMatch(b -> b.verdict() == dev.abfleet.stats.Verdict.REGRESSED);
    return boots ? List.of(dev.abfleet.stats.Reasons.BOOT_FAILURES) : List.of();
  }

  /** "regressed (boot_failures)", "improved"; "undecided" when there is nothing to decide. */
  public String overallLabel() {
    if (overall.isEmpty()) {
      return "undecided";
    }
    List<String> reasons = overallReasons();
    return reasons.isEmpty() ? overall : overall + " (" + String.join(", ", reasons) + ")";
  }

  /**
   * The gate: "pass" when every gating metric is improved, no_change or holds and no candidate
   * fails to boot more often, "fail" when the experiment regressed, "inconclusive" otherwise;
   * empty when there is nothing to decide. Derived from the rows, like {@link #overall} is.
   */
  public String gate() {
    return overall.isEmpty() ? "" : Overall.gate(rows, bootFailures);
  }

  /** "pass (metadata_stat improved, seq_read holds)"; "undecided" when there is no gate. */
  public String gateLabel() {
    String gate = gate();
    if (gate.isEmpty()) {
      return "undecided";
    }
    String why = Overall.gateReason(rows, bootFailures);
    return why.isEmpty() ? gate : gate + " (" + why + ")";
  }

  /** The gate fails: a gating metric regressed or a candidate fails to boot more often. */
  public boolean regressed() {
    return overall.equals(dev.abfleet.stats.Verdict.REGRESSED.wire());
  }
}
