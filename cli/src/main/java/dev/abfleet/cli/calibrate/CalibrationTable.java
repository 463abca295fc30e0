package dev.abfleet.cli.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The calibrate table, as aligned text or Markdown. */
final class CalibrationTable {
  private CalibrationTable() {}

  static String render(List<Calibration.Row> rows, boolean markdown) {
    List<String[]> cells = new ArrayList<>();
    cells.add(new String[] {"scenario", "rule", "A/A FP", "power ±5%", "power ±10%",
        "coverage", "cov. 95% CI", "pairs A/A", "pairs A/B"});
    for (Calibration.Row r : rows) {
      cells.add(new String[] {r.scenario().label, r.rule().label, pct(r.falsePositive()),
          pct(r.power5()), pct(r.power10()), pct(r.coverage()), pct(r.coverage95()),
          num(r.meanPairsAa()), num(r.meanPairsAb())});
    }
    return markdown ? markdown(cells) : text(cells);
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String markdown(List<String[]> cells) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      sb.append("| ").append(String.join(" | ", cells.get(i))).append(" |\n");
      if (i == 0) {
        sb.append("|---|---|--:|--:|--:|--:|--:|--:|--:|\n");
      }
    }
    return sb.toString();
  }

  private static String text(List<String[]> cells) {
    int cols = cells.get(0).length;
    int[] width = new int[cols];
    for (String[] r : cells) {
      for (int i = 0; i < cols; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] r : cells) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < cols; i++) {
        String pad = " ".repeat(width[i] - r[i].length());
        line.append(i < 2 ? r[i] + pad : pad + r[i]).append(i < cols - 1 ? "  " : "");
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }
}
