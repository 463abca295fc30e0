package dev.abfleet.stats;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.hipparchus.distribution.continuous.TDistribution;
import org.hipparchus.stat.descriptive.moment.StandardDeviation;

/**
 * Pairs a paired experiment needs for a change of {@code mde} to be called improved or
 * regressed with probability {@code power}. A verdict needs two things ({@link Verdicts}): the
 * test must reject at its share of alpha, and the estimate must lie beyond the noise threshold.
 * With the estimate of the log ratio roughly normal around ln(1 + mde) with standard error
 * se = sd / sqrt(n * 3/pi) (3/pi: the Wilcoxon signed-rank test's asymptotic relative efficiency
 * to the t test at the normal; the engine's test is a signed-rank test), both hold with
 * probability {@code power} when
 * <ul>
 *   <li>ln(1 + mde) &ge; (z_{1-alpha/2m} + z_power) * se (significance, alpha split over the m
 *       gating metrics as Bonferroni, which the family-wise control spends at worst), and
 *   <li>ln(1 + mde) - ln(1 + threshold) &ge; z_power * se (the estimate beyond the threshold).
 * </ul>
 * n is the larger of the two, rounded up and at least {@value #MIN_PAIRS} and the fewest pairs
 * whose exact p can reach alpha / m. The quantiles are Student's t at the n found (iterated until
 * it settles), since the spread is estimated from those pairs; a plan of at most
 * {@value #SIMULATED_UP_TO} pairs is then moved to the fewest pairs at which simulated normal
 * differences reach the power with the exact signed-rank test and the Hodges-Lehmann estimate,
 * where the normal theory misses the steps of the exact test's p. A change no larger than the threshold is never
 * called, whatever n: {@link #reachable}. The increase is planned for: a decrease of the same
 * size is further from 0 and from the threshold on the log scale, so it needs fewer pairs. Pure.
 */
public final class PowerPlan {
  /** The fewest pairs planned. */
  public static final int MIN_PAIRS = 6;
  /** Asymptotic relative efficiency of the signed-rank test to the t test for normal data. */
  public static final double SIGNED_RANK_ARE = 3 / Math.PI;
  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(0, 1);

  private PowerPlan() {}

  /** True when a change of {@code mde} can be called at all: it is larger than {@code threshold}. */
  public static boolean reachable(double mde, double threshold) {
    return mde > threshold;
  }

  private static void requireReachable(double mde, double threshold) {
    if (!reachable(mde, threshold)) {
      throw new IllegalArgumentException("a change of " + mde + " is within the noise threshold "
          + threshold + " and is never called improved or regressed");
    }
  }

  /**
   * Pairs needed; -1 when {@code pairedSd} is not a positive finite number (too few pairs were
   * measured to know the noise).
   *
   * @param pairedSd sd of the paired log-ratio differences
   * @param mde the relative change to detect, e.g. 0.05; larger than {@code threshold}
   * @param threshold the experiment's noise threshold, e.g. 0.02 (0 = none)
   * @param alpha family-wise significance level
   * @param metrics gating metrics the alpha is split over (at least 1)
   * @param power probability of the verdict for a change of mde, e.g. 0.8
   * @throws IllegalArgumentException when the change is not {@link #reachable}
   */
  public static long pairs(double pairedSd, double mde, double threshold, double alpha, int metrics,
      double power) {
    requireReachable(mde, threshold);
    if (!(pairedSd > 0) || !Double.isFinite(pairedSd)) {
      return -1;
    }
    int m = Math.max(1, metrics);
    double effect = Math.log1p(mde);
    double gap = effect - Math.log1p(Math.max(0, threshold));
    // Normal quantiles first, then Student's t at the n they give until n settles: the sd is
    // estimated from the same few pairs, which the normal quantiles forget at small n.
    long floor = Math.max(MIN_PAIRS, fewestReaching(alpha, m));
    long n = Math.max(floor, needed(pairedSd, effect, gap, alpha, m, power, 0));
    for (int i = 0; i < 50; i++) {
      long next = Math.max(floor, needed(pairedSd, effect, gap, alpha, m, power, n - 1));
      if (next == n) {
        break;
      }
      n = next;
    }
    if (n > SIMULATED_UP_TO) {
      return n;
    }
    // Few pairs: the exact test's p moves in steps the normal theory does not see (at 6 pairs
    // it rejects at 5% only when all six differences share a sign). Simulate the test there.
    Noise normal = rng -> pairedSd * gaussian(rng);
    Trial t = new Trial(effect, Math.log1p(Math.max(0, threshold)), alpha / m, SIMULATED_RUNS);
    while (n < SIMULATED_UP_TO && !t.reaches((int) n, normal, power)) {
      n++;
    }
    while (n > floor && t.reaches((int) n - 1, normal, power)) {
      n--;
    }
    return n;
  }

  /** Plans of at most this many pairs are checked by simulating the test. */
  public static final int SIMULATED_UP_TO = 40;
  /** The fewest recorded differences {@link #pairsFromSample} resamples. */
  public static final int MIN_SAMPLE = 20;
  /** The most pairs {@link #pairsFromSample} simulates; past it the normal plan stands. */
  public static final int RESAMPLED_UP_TO = 400;
  private static final int SIMULATED_RUNS = 2000;
  private static final int RESAMPLED_RUNS = 600;
  private static final long SIMULATION_SEED = 0x9_0bee_f00dL;

  /**
   * Pairs needed when the paired noise is known as a sample of recorded A/A log-ratio
   * differences rather than as an sd: experiments are simulated by resampling the sample's
   * residuals (about its median) around a change of mde, and n is the fewest pairs at which
   * the exact test and the estimate beyond the threshold reach the power. Real boot noise has
   * tails (a boot now and then several times slower) that an sd counts in full and the engine's
   * rank test mostly does not; a robust scale alone (1.4826 MAD) misses the tails the other way.
   * Past {@value #RESAMPLED_UP_TO} pairs, the normal plan at the sample's sd. Falls back to
   * {@link #pairs} with the sample's sd below {@value #MIN_SAMPLE} values.
   *
   * @throws IllegalArgumentException when the change is not {@link #reachable}
   */
  public static long pairsFromSample(double[] diffs, double mde, double threshold, double alpha, int metrics,
      double power) {
    double[] finite = Arrays.stream(diffs).filter(Double::isFinite).toArray();
    double sd = new StandardDeviation().evaluate(finite); // n - 1; 0 for one value, NaN for none
    if (finite.length < MIN_SAMPLE || !(sd > 0)) {
      return pairs(sd, mde, threshold, alpha, metrics, power);
    }
    requireReachable(mde, threshold);
    double[] residuals = finite.clone();
    Arrays.sort(residuals);
    double median = residuals[residuals.length / 2];
    for (int i = 0; i < residuals.length; i++) {
      residuals[i] -= median;
    }
    int m = Math.max(1, metrics);
    long floor = Math.max(MIN_PAIRS, fewestReaching(alpha, m));
    Noise resampled = rng -> residuals[rng.nextInt(residuals.length)];
    Trial t = new Trial(Math.log1p(mde), Math.log1p(Math.max(0, threshold)), alpha / m, RESAMPLED_RUNS);
    // Double from the floor until the power is reached, then bisect back.
    long low = floor - 1;
    long high = floor;
    while (!t.reaches((int) high, resampled, power)) {
      if (high >= RESAMPLED_UP_TO) {
        return Math.max(RESAMPLED_UP_TO, pairs(sd, mde, threshold, alpha, metrics, power));
      }
      low = high;
      high = Math.min(RESAMPLED_UP_TO, high * 2);
    }
    while (high - low > 1) {
      long mid = (low + high) / 2;
      if (t.reaches((int) mid, resampled, power)) {
        high = mid;
      } else {
        low = mid;
      }
    }
    return high;
  }

  /** One draw of paired noise on the log scale. */
  interface Noise {
    double draw(SplittableRandom rng);
  }

  /**
   * Simulated experiments of one plan: a change of {@code effect} (log scale) called when the
   * exact signed-rank p (the engine's scores) is at most {@code alphaEach} and the
   * Hodges-Lehmann estimate lies beyond {@code logThreshold}.
   */
  record Trial(double effect, double logThreshold, double alphaEach, int runs) {
    /**
     * The share of {@code runs} experiments of n pairs called; the same seed for every n, so
     * the shares of neighbouring n compare like with like.
     */
    double power(int n, Noise noise) {
      return (double) hits(n, noise, runs + 1, runs + 1) / runs;
    }

    /**
     * True when at least {@code power} of the runs are called: the same answer as {@code
     * power(n, noise) >= power}, stopping as soon as the count of hits or misses decides it.
     */
    boolean reaches(int n, Noise noise, double power) {
      int needed = (int) Math.ceil(power * runs - 1e-9);
      return hits(n, noise, needed, runs - needed + 1) >= needed;
    }

    /** Hits over the runs, stopping at {@code enoughHits} hits or {@code enoughMisses} misses. */
    private int hits(int n, Noise noise, int enoughHits, int enoughMisses) {
      SplittableRandom rng = new SplittableRandom(SIMULATION_SEED);
      int hits = 0;
      int misses = 0;
      double[] d = new double[n];
      for (int r = 0; r < runs && hits < enoughHits && misses < enoughMisses; r++) {
        for (int i = 0; i < n; i++) {
          d[i] = effect + noise.draw(rng);
        }
        if (HodgesLehmann.walshMedian(d) > logThreshold && AdaptiveSignedRank.twoSidedP(d) <= alphaEach) {
          hits++;
        } else {
          misses++;
        }
      }
      return hits;
    }
  }

  /** {@link Trial#power} of normal differences with sd {@code sd}, {@value #SIMULATED_RUNS} runs. */
  static double simulatedPower(int n, double sd, double effect, double logThreshold, double alphaEach) {
    return new Trial(effect, logThreshold, alphaEach, SIMULATED_RUNS).power(n, rng -> sd * gaussian(rng));
  }

  /** A standard normal draw (Box-Muller; SplittableRandom has no nextGaussian on Java 17). */
  private static double gaussian(SplittableRandom rng) {
    return Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
  }

  /**
   * Pairs for both conditions at quantiles of Student's t with {@code df} degrees of freedom
   * (0 = the normal), divided by the signed-rank efficiency.
   */
  private static long needed(double sd, double effect, double gap, double alpha, int m, double power, long df) {
    double qAlpha = quantile(1 - alpha / (2.0 * m), df);
    double qPower = quantile(power, df);
    double significance = Math.pow((qAlpha + qPower) * sd / effect, 2);
    double beyond = Math.pow(qPower * sd / gap, 2);
    double n = Math.max(significance, beyond) / SIGNED_RANK_ARE;
    return Math.max(MIN_PAIRS, (long) Math.ceil(n - 1e-9));
  }

  private static double quantile(double p, long df) {
    return df <= 0 ? STANDARD_NORMAL.inverseCumulativeProbability(p)
        : new TDistribution(df).inverseCumulativeProbability(p);
  }

  /**
   * The fewest pairs whose exact two-sided signed-rank p can reach alpha / m at all: its
   * smallest value, every difference of one sign, is 2 / 2^n.
   */
  static long fewestReaching(double alpha, int m) {
    long n = 1;
    while (2.0 / Math.pow(2, n) > alpha / m) {
      n++;
    }
    return n;
  }
}
