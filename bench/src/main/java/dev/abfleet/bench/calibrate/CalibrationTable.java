package dev.abfleet.bench.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The calibrate table, as aligned text or Markdown. */
public final class CalibrationTable {
  private CalibrationTable() {}

  public static String render(List<Calibration.Row> rows, boolean markdown) {
    List<String[]> cells = new ArrayList<>();
    cells.add(new String[] {"scenario", "rule", "A/A FP", "power ±5%", "power ±10%",
        "coverage", "cov. 95% CI", "pairs A/A", "pairs A/B"});
    for (Calibration.Row r : rows) {
      cells.add(new String[] {r.scenario().label, r.rule().label, pct(r.falsePositive()),
          pct(r.power5()), pct(r.power10()), pct(r.coverage()), pct(r.coverage95()),
          num(r.meanPairsAa()), num(r.meanPairsAb())});
    }
    return markdown ? markdown(cells, "|---|---|--:|--:|--:|--:|--:|--:|--:|\n") : text(cells, 2);
  }

  /** The small-sample table: each rate with its 95% Wilson interval over the experiments. */
  public static String renderSmall(List<SmallSamples.Row> rows, boolean markdown) {
    List<String[]> cells = new ArrayList<>();
    cells.add(new String[] {"scenario", "pairs", "rule", "A/A FP (family-wise)", "power ±5%",
        "power ±10%"});
    for (SmallSamples.Row r : rows) {
      cells.add(new String[] {r.scenario().label, String.valueOf(r.pairs()), r.rule().label,
          rate(r.falsePositive()), rate(r.power5()), rate(r.power10())});
    }
    return markdown ? markdown(cells, "|---|--:|---|--:|--:|--:|\n") : text(cells, 3);
  }

  /** "4.3% [3.1-5.9]": the rate and its 95% Monte Carlo interval, in percent. */
  public static String rate(SmallSamples.Rate r) {
    double[] ci = r.wilson();
    return String.format(Locale.ROOT, "%.1f%% [%.1f-%.1f]", 100 * r.value(), 100 * ci[0],
        100 * ci[1]);
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String markdown(List<String[]> cells, String rule) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      sb.append("| ").append(String.join(" | ", cells.get(i))).append(" |\n");
      if (i == 0) {
        sb.append(rule);
      }
    }
    return sb.toString();
  }

  /** Aligned columns; the first {@code leftAligned} columns to the left, numbers right. */
  private static String text(List<String[]> cells, int leftAligned) {
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
        line.append(i < leftAligned ? r[i] + pad : pad + r[i]).append(i < cols - 1 ? "  " : "");
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }
}
