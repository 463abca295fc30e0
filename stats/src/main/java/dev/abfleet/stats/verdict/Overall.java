package dev.abfleet.stats.verdict;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Verdict;
import java.util.List;
import java.util.Map;

/**
 * The experiment's verdict and its gate. Overall: regressed if any gating metric regressed or a
 * candidate fails to boot significantly more often; else, when every gating metric is improved,
 * no_change or holds: improved if one improved, else holds if one holds, else no_change; else
 * inconclusive. The gate: pass when every gating metric is improved, no_change or holds and no
 * candidate fails to boot more often; fail when the overall verdict is regressed; inconclusive
 * otherwise. With host classes the class rows decide (a regression on one class is a
 * regression) and the pooled rows only summarise.
 */
final class Overall {
  /** Wire names of the gate. */
  static final String PASS = "pass";
  static final String FAIL = "fail";
  static final String INCONCLUSIVE = "inconclusive";

  private Overall() {}

  /** The wire name of the verdict; empty when there are no rows yet. */
  static String of(List<Row> rows, Map<String, BootFailureComparison> bootFailures) {
    if (rows.isEmpty()) {
      return "";
    }
    List<Comparison> gating = gating(rows);
    if (bootRegressed(bootFailures) || gating.stream().anyMatch(c -> c.verdict() == Verdict.REGRESSED)) {
      return Verdict.REGRESSED.wire();
    }
    if (gating.isEmpty() || !gating.stream().allMatch(c -> c.verdict().passes())) {
      return Verdict.INCONCLUSIVE.wire();
    }
    if (gating.stream().anyMatch(c -> c.verdict() == Verdict.IMPROVED)) {
      return Verdict.IMPROVED.wire();
    }
    return gating.stream().anyMatch(c -> c.verdict() == Verdict.HOLDS)
        ? Verdict.HOLDS.wire() : Verdict.NO_CHANGE.wire();
  }

  /** The gate's wire name: pass, fail, inconclusive; empty when there are no rows yet. */
  static String gate(List<Row> rows, Map<String, BootFailureComparison> bootFailures) {
    String overall = of(rows, bootFailures);
    if (overall.isEmpty()) {
      return "";
    }
    if (overall.equals(Verdict.REGRESSED.wire())) {
      return FAIL;
    }
    return overall.equals(Verdict.INCONCLUSIVE.wire()) ? INCONCLUSIVE : PASS;
  }

  /**
   * Why the gate reads as it does, naming the deciding rows ("metadata_stat improved,
   * seq_read holds"; fail: the regressed rows and boot failures; inconclusive: the rows not
   * shown to hold); empty when there is no gate yet. A row is named by its metric, with its unit
   * when the metric is measured in several, its arm when several arms are compared and its host
   * class when there are classes.
   */
  static String gateReason(List<Row> rows, Map<String, BootFailureComparison> bootFailures) {
    String gate = gate(rows, bootFailures);
    List<Row> deciding = decidingRows(rows);
    boolean arms = deciding.stream().map(Row::arm).distinct().count() > 1;
    List<String> parts = new java.util.ArrayList<>();
    switch (gate) {
      case FAIL -> {
        deciding.stream().filter(r -> r.comparison().verdict() == Verdict.REGRESSED)
            .forEach(r -> parts.add(name(r, deciding, arms) + " regressed"));
        bootFailures.forEach((arm, b) -> {
          if (b.verdict() == Verdict.REGRESSED) {
            parts.add(arm + " fails to boot more often");
          }
        });
      }
      case INCONCLUSIVE -> {
        if (deciding.isEmpty()) {
          parts.add("no gating metric");
        }
        deciding.stream().filter(r -> !r.comparison().verdict().passes()).forEach(r -> parts.add(
            name(r, deciding, arms) + " " + r.comparison().verdict().wire()
                + (r.comparison().reasons().isEmpty() ? ""
                    : " (" + String.join(", ", r.comparison().reasons()) + ")")));
      }
      case PASS -> deciding.forEach(r -> parts.add(name(r, deciding, arms) + " "
          + r.comparison().verdict().wire()));
      default -> { }
    }
    return String.join(", ", parts);
  }

  private static String name(Row r, List<Row> deciding, boolean arms) {
    Comparison c = r.comparison();
    boolean units = deciding.stream().map(Row::comparison)
        .anyMatch(o -> o.metric().equals(c.metric()) && !o.unit().equals(c.unit()));
    return (arms ? r.arm() + "/" : "") + c.metric() + (units ? " " + c.unit() : "")
        + (c.hostClass().isEmpty() ? "" : " [" + c.hostClass() + "]");
  }

  /** The comparisons that decide: gating rows, only the class rows when there are host classes. */
  static List<Comparison> gating(List<Row> rows) {
    return decidingRows(rows).stream().map(Row::comparison).toList();
  }

  private static List<Row> decidingRows(List<Row> rows) {
    boolean byClass = rows.stream().anyMatch(r -> !r.comparison().hostClass().isEmpty());
    return rows.stream().filter(r -> r.comparison().gating())
        .filter(r -> !byClass || !r.comparison().hostClass().isEmpty()).toList();
  }

  private static boolean bootRegressed(Map<String, BootFailureComparison> bootFailures) {
    return bootFailures.values().stream().anyMatch(b -> b.verdict() == Verdict.REGRESSED);
  }
}
