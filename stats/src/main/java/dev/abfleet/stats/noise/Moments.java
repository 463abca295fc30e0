package dev.abfleet.stats.noise;

/**
 * Count, mean and sum of squared deviations of a sample: enough to merge samples measured on
 * different days without keeping every value (Chan et al.'s pairwise update), and exact
 * enough for boot medians and log ratios (no sum of squares of large numbers).
 */
public record Moments(long n, double mean, double m2) {
  public static final Moments EMPTY = new Moments(0, 0, 0);

  /** The moments of {@code values}. */
  public static Moments of(double... values) {
    Moments m = EMPTY;
    for (double v : values) {
      m = m.merge(new Moments(1, v, 0));
    }
    return m;
  }

  /** The moments of both samples together. */
  public Moments merge(Moments o) {
    if (o.n == 0) {
      return this;
    }
    if (n == 0) {
      return o;
    }
    long total = n + o.n;
    double delta = o.mean - mean;
    return new Moments(total, mean + delta * o.n / total,
        m2 + o.m2 + delta * delta * ((double) n * o.n / total));
  }

  /** Sample standard deviation (n - 1); NaN below two values. */
  public double sd() {
    return n < 2 ? Double.NaN : Math.sqrt(m2 / (n - 1));
  }

  /** Coefficient of variation, sd / mean; NaN below two values or at mean 0. */
  public double cv() {
    return n < 2 || mean == 0 ? Double.NaN : sd() / Math.abs(mean);
  }
}
