package dev.abfleet.cli.analyze;

import dev.abfleet.stats.Comparison;
import java.util.List;
import java.util.Locale;

/** Human formatting shared by the text and Markdown outputs. */
final class Format {
  private Format() {}

  /** 31800 -> "31.8k", 1.5e6 -> "1.50M", 12.3 -> "12.3"; NaN -> "-". */
  static String value(double v) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    double a = Math.abs(v);
    if (a >= 1e9) return String.format(Locale.ROOT, "%.2fG", v / 1e9);
    if (a >= 1e6) return String.format(Locale.ROOT, "%.2fM", v / 1e6);
    if (a >= 1e4) return String.format(Locale.ROOT, "%.1fk", v / 1e3);
    if (a >= 1e3) return String.format(Locale.ROOT, "%.2fk", v / 1e3);
    if (a >= 100) return String.format(Locale.ROOT, "%.0f", v);
    if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
    return String.format(Locale.ROOT, "%.3g", v);
  }

  /** -0.035 -> "-3.5%"; NaN -> "-". */
  static String percent(double r) {
    return Double.isFinite(r) ? String.format(Locale.ROOT, "%+.1f%%", r * 100) : "-";
  }

  static String interval(double lo, double hi) {
    return Double.isFinite(lo) && Double.isFinite(hi)
        ? "[" + percent(lo) + ", " + percent(hi) + "]" : "-";
  }

  static String p(double p) {
    if (!Double.isFinite(p)) {
      return "-";
    }
    return p < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.3f", p);
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

  /** Columns padded to the widest cell, two spaces apart. */
  static String table(List<String[]> rows) {
    int cols = rows.get(0).length;
    int[] width = new int[cols];
    for (String[] r : rows) {
      for (int i = 0; i < cols; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < cols; i++) {
        line.append(r[i]);
        if (i < cols - 1) {
          line.append(" ".repeat(width[i] - r[i].length() + 2));
        }
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }
}
