package dev.abfleet.cli.analyze;

import dev.abfleet.stats.SignInterval;
import java.util.ArrayList;
import java.util.List;

/**
 * What benchstat shows of each arm beside a verdict: the centre and spread of one benchmark's
 * values in one unit, and the geometric mean of the centres per unit. Pure; no verdict here.
 */
public final class GoBenchSummaries {
  /** Confidence of the interval behind the spread, benchstat's default. */
  public static final double LEVEL = 0.95;

  private GoBenchSummaries() {}

  /**
   * One arm's values of one benchmark in one unit.
   *
   * @param centre median of the values, in the unit; NaN when there are none
   * @param low lower end of the distribution-free {@link #LEVEL} interval of the median (order
   *     statistics, {@link SignInterval}); NaN with fewer than 6 values
   * @param high upper end; NaN likewise
   * @param spread max(centre - low, high - centre) / centre, relative (0.02 = ±2%): benchstat's
   *     ±; with 6 to 8 values the interval is min..max, so the larger distance from the median to
   *     the min or max; 0 when every value is 0; NaN when the interval is NaN or the centre 0
   *     with values apart
   * @param n values
   */
  public record Summary(double centre, double low, double high, double spread, int n) {}

  public static Summary of(double[] values) {
    SignInterval s = SignInterval.of(values, 1 - LEVEL);
    double spread;
    if (Double.isNaN(s.low())) {
      spread = Double.NaN;
    } else if (s.median() == 0) {
      spread = s.low() == 0 && s.high() == 0 ? 0 : Double.NaN;
    } else {
      spread = Math.max(s.median() - s.low(), s.high() - s.median()) / Math.abs(s.median());
    }
    return new Summary(s.median(), s.low(), s.high(), spread, s.n());
  }

  /**
   * The geometric means of both arms' centres over the benchmarks measured in both.
   *
   * @param baseline geometric mean of the baseline centres; NaN when not computed
   * @param candidate geometric mean of the candidate centres; NaN likewise
   * @param change candidate / baseline - 1 (the geometric mean of the per-benchmark ratios); NaN
   *     likewise
   * @param benchmarks benchmarks measured in both arms
   * @param problem why it is not computed (a centre 0 or less, no benchmark in both arms); null
   *     when computed
   */
  public record Geomean(double baseline, double candidate, double change, int benchmarks,
      String problem) {}

  /**
   * @param names the benchmarks, for the message
   * @param baseline per benchmark its baseline summary, null when not measured
   * @param candidate per benchmark its candidate summary, null when not measured
   */
  public static Geomean geomean(List<String> names, List<Summary> baseline, List<Summary> candidate) {
    List<double[]> both = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      Summary a = baseline.get(i);
      Summary b = candidate.get(i);
      if (a == null || b == null || a.n() == 0 || b.n() == 0) {
        continue;
      }
      if (!(a.centre() > 0 && b.centre() > 0)) {
        // As benchstat: the logarithm of a centre of 0 is not a number, and leaving the
        // benchmark out would compare a different set of benchmarks than the table shows.
        return new Geomean(Double.NaN, Double.NaN, Double.NaN, 0,
            "needs every centre > 0, " + names.get(i) + " has "
            + java.math.BigDecimal.valueOf((a.centre() > 0 ? b : a).centre()).stripTrailingZeros()
                .toPlainString());
      }
      both.add(new double[] {Math.log(a.centre()), Math.log(b.centre())});
    }
    if (both.isEmpty()) {
      return new Geomean(Double.NaN, Double.NaN, Double.NaN, 0, "no benchmark measured in both files");
    }
    double la = both.stream().mapToDouble(x -> x[0]).average().orElseThrow();
    double lb = both.stream().mapToDouble(x -> x[1]).average().orElseThrow();
    return new Geomean(Math.exp(la), Math.exp(lb), Math.expm1(lb - la), both.size(), null);
  }
}
