package dev.abfleet.bench.calibrate;

/** Wilson's score interval for a binomial proportion: the Monte Carlo error of a rate. */
public final class Wilson {
  private Wilson() {}

  /** The 95% interval. */
  public static double[] interval(long hits, long n) {
    return interval(hits, n, 1.959963984540054);
  }

  /** [low, high] for {@code hits} of {@code n} at the normal quantile {@code z}; NaN for n=0. */
  public static double[] interval(long hits, long n, double z) {
    if (n <= 0) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double p = hits / (double) n;
    double z2 = z * z;
    double center = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = z / (1 + z2 / n) * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
    return new double[] {Math.max(0, center - half), Math.min(1, center + half)};
  }
}
