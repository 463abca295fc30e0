package dev.abfleet.report;

import java.util.Locale;

/** Human formatting of values and relative changes for text and Markdown reports. */
public final class Numbers {
  private Numbers() {}

  /** 31800 -> "31.8k", 1.5e6 -> "1.50M", 12.3 -> "12.3"; NaN -> "-". */
  public static String value(double v) {
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

  /** A signed {@link #value}: -0.96 -> "-0.960", 1203 -> "+1.20k"; NaN -> "-". */
  public static String signed(double v) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    return (v < 0 ? "-" : "+") + value(Math.abs(v));
  }

  /** "[-0.990, -0.900]"; "-" when either end is NaN. */
  public static String signedInterval(double lo, double hi) {
    if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
      return "-";
    }
    return "[" + signed(lo) + ", " + signed(hi) + "]";
  }

  /** "31.8k ops/s"; NaN -> "-". */
  public static String withUnit(double v, String unit) {
    return Double.isFinite(v) ? value(v) + " " + unit : "-";
  }

  /** 0.97 -> "97%"; 0 (no ceiling) -> "-". */
  public static String ofCeiling(double fraction) {
    return fraction > 0 && Double.isFinite(fraction) ? String.format(Locale.ROOT, "%.0f%%", fraction * 100) : "-";
  }

  /** -0.035 -> "-3.5%"; NaN -> "-". */
  public static String percent(double r) {
    if (!Double.isFinite(r)) {
      return "-";
    }
    return String.format(Locale.ROOT, "%+.1f%%", r * 100);
  }

  public static String interval(double lo, double hi) {
    if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
      return "-";
    }
    return "[" + percent(lo) + ", " + percent(hi) + "]";
  }

  public static String p(double p) {
    if (!Double.isFinite(p)) {
      return "-";
    }
    return p < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.3f", p);
  }

  /** 0.95 -> "95%", 0.9875 -> "98.75%". */
  public static String level(double fraction) {
    return new java.math.BigDecimal(100 * fraction).setScale(2, java.math.RoundingMode.HALF_UP)
        .stripTrailingZeros().toPlainString() + "%";
  }

  /** Columns padded to the widest cell, two spaces apart, trailing blanks trimmed. */
  public static String table(java.util.List<String[]> rows) {
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
