package dev.abfleet.stats;

import java.util.Arrays;
import org.hipparchus.distribution.discrete.BinomialDistribution;

/**
 * The median of paired differences with the sign test's exact distribution-free interval: the
 * order statistics {@code d(k)} and {@code d(n+1-k)}, k the largest with
 * {@code 2 P(Binomial(n, 1/2) <= k - 1) <= alpha}. It assumes nothing about the differences'
 * shape or symmetry (unlike the signed-rank interval), which suits counts per operation: often
 * skewed, often zero in one arm.
 *
 * @param median median of the finite differences; NaN when there are none
 * @param low lower end; NaN when too few differences for the level (fewer than 6 at 95%)
 * @param high upper end; NaN likewise
 * @param n finite differences used
 */
public record SignInterval(double median, double low, double high, int n) {

  /** The interval at level {@code 1 - alpha} of the finite values of {@code d}. */
  public static SignInterval of(double[] d, double alpha) {
    double[] x = Arrays.stream(d).filter(Double::isFinite).sorted().toArray();
    int n = x.length;
    if (n == 0) {
      return new SignInterval(Double.NaN, Double.NaN, Double.NaN, 0);
    }
    double median = VerdictEngine.median(x);
    int k = depth(n, alpha);
    if (k < 1) {
      return new SignInterval(median, Double.NaN, Double.NaN, n);
    }
    return new SignInterval(median, x[k - 1], x[n - k], n);
  }

  /** The largest k with 2 P(B <= k - 1) <= alpha, B ~ Binomial(n, 1/2); 0 when none. */
  static int depth(int n, double alpha) {
    if (n <= 0) {
      return 0;
    }
    BinomialDistribution signs = new BinomialDistribution(n, 0.5);
    int k = 0;
    while (k <= n / 2 && 2 * signs.cumulativeProbability(k) <= alpha) {
      k++;
    }
    return k;
  }
}
