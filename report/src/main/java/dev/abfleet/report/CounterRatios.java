package dev.abfleet.report;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.model.CounterRatio;

import dev.abfleet.stats.SignInterval;
import dev.abfleet.stats.Medians;
import java.util.regex.Pattern;
import java.util.ArrayList;
import java.util.List;

/**
 * Ratios of two guest counters, per boot, compared between the arms: for every compared arm,
 * metric and ratio ({@link Design#ratios()}; none declared = {@link #defaults}), each boot's
 * ratio is sum(num) / sum(den) over the metric's counters; boots whose denominator did not move
 * (or whose context switches were not counted) leave their pair out. The median of the pairs'
 * candidate-minus-baseline differences comes with the sign test's exact 95% interval, beside both
 * arms' median ratios. Pairs are those of {@link TelemetryChanges} ({@link CounterPairs}). Never
 * gates: a ratio such as reschedule IPIs per virtio-fs request says why a metric moved.
 */
public final class CounterRatios {
  private CounterRatios() {}

  /**
   * One ratio of one metric.
   *
   * @param pairs pairs where both boots' denominators moved
   * @param baseline median over those pairs of the baseline's ratio; NaN when none
   * @param candidate the same for the compared arm
   * @param change paired median of (candidate - baseline); low/high its interval (NaN when too
   *     few pairs)
   */
  public record Row(String arm, String metric, String name, String num, String den, int pairs,
      double baseline, double candidate, double change, double low, double high) {

    /** "RES / virtio*-request*". */
    public String definition() {
      return num + " / " + den;
    }
  }

  /**
   * The rows of a report's boots; empty without fleet facts or counters. A ratio appears for a
   * metric when at least one pair's boots both have a denominator.
   */
  public static List<Row> of(Report r) {
    List<Row> out = new ArrayList<>();
    for (String arm : r.design().compared()) {
      List<BootRecord[]> pairs = CounterPairs.of(r, arm);
      for (String metric : CounterPairs.metrics(pairs)) {
        List<CounterRatio> ratios = r.design().ratios().isEmpty()
            ? defaults(pairs, metric) : r.design().ratios();
        for (CounterRatio ratio : ratios) {
          Row row = compare(arm, metric, ratio, pairs);
          if (row.pairs() > 0) {
            out.add(row);
          }
        }
      }
    }
    return out;
  }

  /**
   * The ratios shown when none are declared: {@value CounterRatio#DEFAULT_NAME}, reschedule IPIs
   * ("RES", on arm64 "IPI0") per device request interrupt ({@value CounterRatio#DEVICE_REQUESTS}),
   * when both were counted in these pairs.
   */
  static List<CounterRatio> defaults(List<BootRecord[]> pairs, String metric) {
    String resched = CounterPairs.rescheduleRow(pairs, metric);
    if (resched == null) {
      return List.of();
    }
    for (BootRecord[] p : pairs) {
      for (BootRecord b : p) {
        MetricCounters c = b.run().counters(metric);
        if (c != null && count(CounterRatio.DEVICE_REQUESTS, c) > 0) {
          return List.of(new CounterRatio(CounterRatio.DEFAULT_NAME, resched,
              CounterRatio.DEVICE_REQUESTS));
        }
      }
    }
    return List.of();
  }

  /** The ratio compared over the pairs whose boots both have it. */
  static Row compare(String arm, String metric, CounterRatio ratio, List<BootRecord[]> pairs) {
    List<Double> base = new ArrayList<>();
    List<Double> cand = new ArrayList<>();
    for (BootRecord[] p : pairs) {
      double a = ratio(ratio, p[0].run().counters(metric));
      double c = ratio(ratio, p[1].run().counters(metric));
      if (Double.isFinite(a) && Double.isFinite(c)) {
        base.add(a);
        cand.add(c);
      }
    }
    double[] d = new double[base.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = cand.get(i) - base.get(i);
    }
    SignInterval s = SignInterval.of(d, TelemetryChanges.ALPHA);
    return new Row(arm, metric, ratio.name(), ratio.num(), ratio.den(), d.length, median(base),
        median(cand), s.median(), s.low(), s.high());
  }

  /** One boot's ratio; NaN without counters, with a zero denominator or uncounted ctxt. */
  static double ratio(CounterRatio ratio, MetricCounters c) {
    if (c == null) {
      return Double.NaN;
    }
    double den = count(ratio.den(), c);
    double num = count(ratio.num(), c);
    return den > 0 ? num / den : Double.NaN;
  }

  private static double median(List<Double> values) {
    return Medians.of(values.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * The count {@code pattern} names in {@code c}: the matching interrupt rows summed (a row absent
   * did not move: 0), or the context switches; NaN when context switches were not counted.
   */
  static double count(String pattern, MetricCounters c) {
    if (pattern.equals(MetricCounters.CONTEXT_SWITCHES)) {
      return c.contextSwitches() < 0 ? Double.NaN : c.contextSwitches();
    }
    if (pattern.indexOf('*') < 0) {
      return c.interrupts().getOrDefault(pattern, 0L);
    }
    Pattern glob = glob(pattern);
    return c.interrupts().entrySet().stream().filter(e -> glob.matcher(e.getKey()).matches())
        .mapToLong(java.util.Map.Entry::getValue).sum();
  }

  private static Pattern glob(String pattern) {
    StringBuilder re = new StringBuilder();
    for (String part : pattern.split("\\*", -1)) {
      if (re.length() > 0) {
        re.append(".*");
      }
      re.append(Pattern.quote(part));
    }
    return Pattern.compile(re.toString());
  }
}
