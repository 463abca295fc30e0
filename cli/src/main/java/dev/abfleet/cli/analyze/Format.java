package dev.abfleet.cli.analyze;

import dev.abfleet.cli.report.Numbers;
import dev.abfleet.cli.report.TextReport;
import dev.abfleet.stats.Comparison;
import java.util.List;
import java.util.Locale;

/** Human formatting shared by the text and Markdown outputs. */
final class Format {
  private Format() {}

  static String value(double v) {
    return Numbers.value(v);
  }

  static String percent(double r) {
    return Numbers.percent(r);
  }

  static String interval(double lo, double hi) {
    return Numbers.interval(lo, hi);
  }

  static String p(double p) {
    return Numbers.p(p);
  }

  /** " [qemu/kvm]" or " [pooled]" when the experiment has host classes; empty otherwise. */
  static String classSuffix(ExperimentResult r, Comparison c) {
    boolean byClass = r.comparisons().stream().anyMatch(x -> !x.hostClass().isEmpty());
    return !byClass ? "" : " [" + (c.hostClass().isEmpty() ? "pooled" : c.hostClass()) + "]";
  }

  static String verdict(Comparison c) {
    return c.verdict().wire()
        + (c.reasons().isEmpty() ? "" : " (" + String.join(", ", c.reasons()) + ")");
  }

  /** n per arm: "32" for pairs, "10+12" for two samples. */
  static String n(Comparison c) {
    return c.paired() ? Integer.toString(c.nPairs()) : c.nBaseline() + "+" + c.nCandidate();
  }

  /** The policy line under a table. */
  static String policyLine(ExperimentResult r) {
    long gating = r.comparisons().stream().filter(Comparison::gating).count();
    String looks = r.policy().looks().isEmpty() ? ""
        : ", looks at " + r.policy().looks() + " pairs";
    double level = 100 * (1 - r.policy().alpha() / Math.max(1, gating));
    return String.format(Locale.ROOT,
        "overall: %s (alpha %s family-wise over %d gating %s, CI at %s%%, noise threshold"
            + " ±%.1f%%%s)",
        r.overall(), r.policy().alpha(), gating, gating == 1 ? "metric" : "metrics",
        new java.math.BigDecimal(level).setScale(2, java.math.RoundingMode.HALF_UP)
            .stripTrailingZeros().toPlainString(),
        100 * r.policy().noiseThreshold(), looks);
  }

  static String table(List<String[]> rows) {
    return TextReport.table(rows);
  }
}
