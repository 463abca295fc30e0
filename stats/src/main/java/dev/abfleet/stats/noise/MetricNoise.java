package dev.abfleet.stats.noise;

import dev.abfleet.stats.PowerPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * One metric's A/A noise on one host class.
 *
 * @param metric the metric's name
 * @param boots the per-boot medians of every boot of both arms (their CV is the boot-to-boot noise)
 * @param diffs the paired log-ratio differences d_i = ln(b_i) - ln(a_i), one per pair (their sd is the
 *     noise a paired test on log ratios faces)
 * @param recent the newest {@value #RECENT_MAX} of those differences, oldest first: the sample pair
 *     counts are planned from ({@link PowerPlan#pairsFromSample}); empty in records written before
 *     they were kept
 */
public record MetricNoise(String metric, Moments boots, Moments diffs, List<Double> recent) {
  /** The most differences a record keeps per metric. */
  public static final int RECENT_MAX = 400;

  public MetricNoise {
    recent = recent == null ? List.of() : List.copyOf(newest(recent));
  }

  /** A metric measured from these paired differences: their moments and the newest of them. */
  public static MetricNoise of(String metric, Moments boots, double... diffs) {
    List<Double> d = new ArrayList<>(diffs.length);
    for (double x : diffs) {
      d.add(x);
    }
    return new MetricNoise(metric, boots, Moments.of(diffs), d);
  }

  /** CV of the per-boot medians; NaN below two boots. */
  public double cv() {
    return boots.cv();
  }

  /** Sample sd of the paired log-ratio differences; NaN below two pairs. */
  public double pairedSd() {
    return diffs.sd();
  }

  /** Pairs measured. */
  public long pairs() {
    return diffs.n();
  }

  /**
   * Pairs for a change of {@code mde} to be called at {@code power}: from the kept differences
   * when there are at least {@value PowerPlan#MIN_SAMPLE} of them (their tails as measured),
   * else from the sd; -1 when the noise is unknown.
   */
  public long pairsFor(double mde, double threshold, double alpha, int gatingMetrics, double power) {
    if (recent.size() >= PowerPlan.MIN_SAMPLE) {
      return PowerPlan.pairsFromSample(recent.stream().mapToDouble(Double::doubleValue).toArray(), mde,
          threshold, alpha, gatingMetrics, power);
    }
    return PowerPlan.pairs(pairedSd(), mde, threshold, alpha, gatingMetrics, power);
  }

  /** Both measurements: moments merged, {@code o}'s differences after this one's. */
  public MetricNoise merge(MetricNoise o) {
    List<Double> both = new ArrayList<>(recent);
    both.addAll(o.recent);
    return new MetricNoise(metric, boots.merge(o.boots), diffs.merge(o.diffs), both);
  }

  private static List<Double> newest(List<Double> values) {
    return values.size() <= RECENT_MAX ? values : values.subList(values.size() - RECENT_MAX, values.size());
  }
}
