package dev.abfleet.report;

import dev.abfleet.stats.verdict.BootValues;

import dev.abfleet.stats.verdict.Row;


import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The per-boot charts of one metric in one host class, for {@link HtmlReport}: each boot's value
 * by pair in boot order (drift and outliers show), and each compared arm's paired changes with
 * the verdict's estimate, interval and noise threshold. A boot's value is the one the verdict
 * engine uses ({@link BootValues#of}): the median of its measured iterations. Warm-up boots
 * and failed boots have none.
 */
final class BootCharts {
  private BootCharts() {}

  /** One boot's value; {@code slot} is its x position (pair index, shifted by boot order). */
  record Point(String arm, String id, String host, int pair, double slot, double value) {}

  /** One complete pair: both boots have a value; {@code change} = candidate / baseline - 1. */
  record PairChange(String arm, String host, int pair, double change) {}

  /** Boots of the class ({@code null} = every class) with a value of the metric, in boot order. */
  static List<Point> points(Report r, String metric, String unit, String cls) {
    List<BootRecord> boots = boots(r, cls).stream()
        .filter(b -> Double.isFinite(BootValues.of(b, metric, unit))).toList();
    Map<Integer, List<BootRecord>> byPair = new TreeMap<>();
    for (BootRecord b : boots) {
      byPair.computeIfAbsent(b.pair() == null ? 0 : b.pair(), p -> new ArrayList<>()).add(b);
    }
    List<Point> out = new ArrayList<>();
    byPair.forEach((pair, list) -> {
      list.sort(Comparator.comparingLong(BootRecord::order));
      for (int i = 0; i < list.size(); i++) {
        BootRecord b = list.get(i);
        // Boots of one pair sit side by side, the one that booted first on the left.
        double slot = pair + (i - (list.size() - 1) / 2.0) * 0.5 / list.size();
        out.add(new Point(b.arm(), b.id(), b.host(), pair, slot,
            BootValues.of(b, metric, unit)));
      }
    });
    return out;
  }

  /** Pairs of the class where the baseline's and the arm's boots both have a value, by pair. */
  static List<PairChange> changes(Report r, String arm, String metric, String unit, String cls) {
    List<BootRecord> boots = boots(r, cls);
    Map<String, BootRecord> other = new LinkedHashMap<>();
    boots.stream().filter(b -> b.arm().equals(arm))
        .forEach(b -> other.putIfAbsent(b.host() + "\u0000" + b.pair(), b));
    List<PairChange> out = new ArrayList<>();
    for (BootRecord b : boots) {
      BootRecord o = b.arm().equals(r.design().baseline()) && b.pair() != null
          ? other.get(b.host() + "\u0000" + b.pair()) : null;
      double base = BootValues.of(b, metric, unit);
      double cand = BootValues.of(o, metric, unit);
      if (o != null && base > 0 && cand > 0 && Double.isFinite(base) && Double.isFinite(cand)) {
        out.add(new PairChange(arm, b.host(), b.pair(), cand / base - 1));
      }
    }
    out.sort(Comparator.comparingInt(PairChange::pair).thenComparing(p -> String.valueOf(p.host())));
    return out;
  }

  /** The pairs a metric's charts in a host class span, first to last (0, 0 when none). */
  record PairRange(int first, int last) {}

  /**
   * The x range both charts of the metric and class share: the pairs of every boot with a value,
   * complete pairs or not. A cancelled or failing experiment leaves its last pairs incomplete
   * (one arm booted, the other never did): they show in the per-boot chart and have no paired
   * change, and were they left out of the paired chart's range, the two charts, one above the
   * other, would put the same pair at different places.
   */
  static PairRange pairRange(Report r, String metric, String unit, String cls) {
    List<Integer> pairs = points(r, metric, unit, cls).stream().map(Point::pair).toList();
    return new PairRange(minPair(pairs), maxPair(pairs));
  }

  /** Chart 1: every boot's value, one series per arm. */
  static String bootsChart(Report r, List<String> arms, String metric, String unit, String cls,
      String id) {
    List<Point> points = points(r, metric, unit, cls);
    PairRange range = pairRange(r, metric, unit, cls);
    Svg svg = new Svg(range.first() - 0.5, range.last() + 0.5,
        points.stream().mapToDouble(Point::value).min().orElse(0),
        points.stream().mapToDouble(Point::value).max().orElse(1));
    svg.yAxis(unit.isEmpty() ? metric : metric + " (" + unit + ")", Numbers::value);
    svg.xAxis("pair (boot order: within a pair, the first boot is on the left)");
    for (Point p : points) {
      svg.point(p.slot(), p.value(), Math.max(0, arms.indexOf(p.arm())),
          HtmlText.attr("data-boot", p.id()) + " " + HtmlText.attr("data-arm", p.arm()),
          p.arm() + ", pair " + p.pair() + (p.host() == null ? "" : " on " + p.host()) + ": "
              + Numbers.withUnit(p.value(), unit) + " (" + p.id() + ")");
    }
    String where = cls == null ? "" : " on host class " + cls;
    String title = metric + where + ": per-boot values";
    String desc = points.size() + " boots with a value" + where + ", by pair in boot order, one"
        + " series per arm (" + String.join(", ", arms) + "); y: " + metric
        + (unit.isEmpty() ? "" : " in " + unit) + ", each boot's median of its measured iterations.";
    return svg.render(id, title, desc, "data-chart=\"boots\" " + HtmlText.attr("data-metric", metric)
        + " " + HtmlText.attr("data-class", cls == null ? "" : cls));
  }

  /** Chart 2: the arm's paired changes in %, its estimate, interval and ±noise threshold. */
  static String changesChart(Report r, String arm, Row row, String metric, String unit,
      String cls, String id) {
    List<PairChange> changes = changes(r, arm, metric, unit, cls);
    double threshold = r.design().policy().noiseThreshold();
    double est = row == null ? Double.NaN : row.comparison().change();
    double lo = row == null ? Double.NaN : row.comparison().ciLow();
    double hi = row == null ? Double.NaN : row.comparison().ciHigh();
    double yLo = -threshold;
    double yHi = threshold;
    for (double v : new double[] {est, lo, hi}) {
      if (Double.isFinite(v)) {
        yLo = Math.min(yLo, v);
        yHi = Math.max(yHi, v);
      }
    }
    for (PairChange c : changes) {
      yLo = Math.min(yLo, c.change());
      yHi = Math.max(yHi, c.change());
    }
    PairRange range = pairRange(r, metric, unit, cls);
    Svg svg = new Svg(range.first() - 0.5, range.last() + 0.5, 100 * yLo, 100 * yHi);
    svg.yAxis("change vs " + r.design().baseline() + " (%)", v -> Numbers.percent(v / 100));
    svg.xAxis("pair");
    if (Double.isFinite(lo) && Double.isFinite(hi)) {
      svg.band(100 * lo, 100 * hi, "interval", "interval " + Numbers.interval(lo, hi));
    }
    svg.hline(0, "zero", "no change");
    svg.hline(100 * threshold, "threshold", "noise threshold " + Numbers.percent(threshold));
    svg.hline(-100 * threshold, "threshold", "noise threshold " + Numbers.percent(-threshold));
    if (Double.isFinite(est)) {
      svg.hline(100 * est, "estimate", "estimate " + Numbers.percent(est));
    }
    int series = Math.max(0, r.design().compared().indexOf(arm) + 1);
    for (PairChange c : changes) {
      svg.point(c.pair(), 100 * c.change(), series,
          "data-pair=\"" + c.pair() + "\" " + HtmlText.attr("data-arm", arm),
          "pair " + c.pair() + (c.host() == null ? "" : " on " + c.host()) + ": "
              + Numbers.percent(c.change()));
    }
    String where = cls == null ? "" : " on host class " + cls;
    String title = metric + where + ": " + arm + " vs " + r.design().baseline() + " per pair";
    String desc = changes.size() + " complete pairs" + where + ", each the change of " + arm
        + " over " + r.design().baseline() + " in %; estimate " + Numbers.percent(est)
        + ", interval " + Numbers.interval(lo, hi) + ", dashed: noise threshold "
        + Numbers.percent(threshold).replace("+", "±") + ".";
    return svg.render(id, title, desc, "data-chart=\"changes\" " + HtmlText.attr("data-metric", metric)
        + " " + HtmlText.attr("data-class", cls == null ? "" : cls) + " " + HtmlText.attr("data-arm", arm));
  }

  private static List<BootRecord> boots(Report r, String cls) {
    if (r.run() == null) {
      return List.of();
    }
    return r.run().boots().stream()
        .filter(b -> !b.warmupBoot() && !b.rerun() && (cls == null || cls.equals(b.hostClass()))).toList();
  }

  private static int minPair(List<Integer> pairs) {
    return pairs.stream().mapToInt(Integer::intValue).min().orElse(0);
  }

  private static int maxPair(List<Integer> pairs) {
    return pairs.stream().mapToInt(Integer::intValue).max().orElse(0);
  }
}
