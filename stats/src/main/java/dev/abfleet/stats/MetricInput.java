package dev.abfleet.stats;

/**
 * Per-boot values of one metric for one baseline/candidate comparison, iterations already
 * collapsed to one value per boot (see {@link Iterations#collapse}). NaN marks a boot that
 * produced no value (a failed boot).
 *
 * <p>Paired ({@code paired = true}): index i of both arrays is pair i, in the order the pairs
 * ran; {@code hosts[i]} is the host of pair i and {@code baselineFirst[i]} says whether the
 * baseline booted first in it. Either array may be null (one host / order unknown). Unpaired:
 * the two arrays are independent samples of any lengths; hosts and order are ignored.
 */
public record MetricInput(
    String metric,
    String unit,
    Direction better,
    boolean gating,
    double[] baseline,
    double[] candidate,
    boolean paired,
    String[] hosts,
    boolean[] baselineFirst) {

  /** Paired values from one host, order unknown. */
  public MetricInput(String metric, String unit, Direction better, boolean gating,
      double[] baseline, double[] candidate) {
    this(metric, unit, better, gating, baseline, candidate, true, null, null);
  }

  /** Paired values with the host and the boot order of each pair (either may be null). */
  public static MetricInput paired(String metric, String unit, Direction better, boolean gating,
      double[] baseline, double[] candidate, String[] hosts, boolean[] baselineFirst) {
    return new MetricInput(metric, unit, better, gating, baseline, candidate, true, hosts,
        baselineFirst);
  }

  /** Two independent samples (no pairing): Mann-Whitney analysis. */
  public static MetricInput unpaired(String metric, String unit, Direction better,
      boolean gating, double[] baseline, double[] candidate) {
    return new MetricInput(metric, unit, better, gating, baseline, candidate, false, null, null);
  }

  /** The same input restricted to the first {@code n} pairs (paired) or boots per arm. */
  public MetricInput firstN(int n) {
    return new MetricInput(metric, unit, better, gating, head(baseline, n), head(candidate, n),
        paired, hosts == null ? null : java.util.Arrays.copyOf(hosts, Math.min(n, hosts.length)),
        baselineFirst == null ? null
            : java.util.Arrays.copyOf(baselineFirst, Math.min(n, baselineFirst.length)));
  }

  /** The same input, gating or not. */
  public MetricInput withGating(boolean gates) {
    return new MetricInput(metric, unit, better, gates, baseline, candidate, paired, hosts, baselineFirst);
  }

  private static double[] head(double[] v, int n) {
    return v == null ? null : java.util.Arrays.copyOf(v, Math.min(n, v.length));
  }
}
