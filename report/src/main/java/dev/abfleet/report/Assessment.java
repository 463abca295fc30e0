package dev.abfleet.report;

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

  /** The gate fails: a gating metric regressed or a candidate fails to boot more often. */
  public boolean regressed() {
    return overall.equals(dev.abfleet.stats.Verdict.REGRESSED.wire());
  }
}
