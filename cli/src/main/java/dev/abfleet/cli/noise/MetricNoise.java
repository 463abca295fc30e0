package dev.abfleet.cli.noise;

/**
 * One metric's A/A noise on one host class.
 *
 * @param metric the metric's name
 * @param boots the per-boot medians of every boot of both arms (their CV is the boot-to-boot noise)
 * @param diffs the paired log-ratio differences d_i = ln(b_i) - ln(a_i), one per pair (their sd is the
 *     noise a paired test on log ratios faces)
 */
public record MetricNoise(String metric, Moments boots, Moments diffs) {

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

  public MetricNoise merge(MetricNoise o) {
    return new MetricNoise(metric, boots.merge(o.boots), diffs.merge(o.diffs));
  }
}
