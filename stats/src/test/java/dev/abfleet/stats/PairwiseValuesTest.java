package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Selection without listing against the listing it replaces ({@link
 * HodgesLehmann#walshAverages}, {@link HodgesLehmann#shiftDifferences}: the same sums, so the
 * same doubles), and against numpy at sizes where listing is still possible in numpy
 * (src/test/python/reference_values.py: a median over 4.5 million Walsh averages and over 5
 * million differences).
 */
class PairwiseValuesTest {
  private static final double NUMPY = 1e-15; // the same sums; numpy's median adds the two middle

  @Test
  void walshSelectionEqualsTheSortedListingAtEveryRank() {
    SplittableRandom rng = new SplittableRandom(31);
    for (int trial = 0; trial < 100; trial++) {
      double[] d = sample(rng, 1 + rng.nextInt(40));
      double[] listed = HodgesLehmann.walshAverages(d);
      WalshAverages implicit = WalshAverages.of(d);
      assertThat(implicit.size()).isEqualTo(listed.length);
      for (int r = 1; r <= listed.length; r++) {
        assertThat(implicit.kth(r)).isEqualTo(listed[r - 1]);
      }
    }
  }

  @Test
  void walshNeighboursEqualTheListing() {
    SplittableRandom rng = new SplittableRandom(32);
    for (int trial = 0; trial < 100; trial++) {
      double[] d = sample(rng, 1 + rng.nextInt(30));
      double[] listed = HodgesLehmann.walshAverages(d);
      WalshAverages implicit = WalshAverages.of(d);
      for (int k = 0; k < listed.length; k++) {
        double x = listed[k];
        assertThat(implicit.countAtMost(x)).isEqualTo(countAtMost(listed, x));
        assertThat(implicit.atMost(x)).isEqualTo(x);
        assertThat(implicit.above(x)).isEqualTo(firstAbove(listed, x));
        assertThat(implicit.below(x)).isEqualTo(lastBelow(listed, x));
        double between = k + 1 < listed.length ? (x + listed[k + 1]) / 2 : x + 1;
        assertThat(implicit.atMost(between)).isEqualTo(lastAtMost(listed, between));
        assertThat(implicit.around(between))
            .containsExactly(lastAtMost(listed, between), firstAbove(listed, between));
        assertThat(implicit.around(x)).containsExactly(x, firstAbove(listed, x));
      }
      assertThat(implicit.atMost(listed[0] - 1)).isEqualTo(Double.NEGATIVE_INFINITY);
      assertThat(implicit.around(listed[0] - 1))
          .containsExactly(Double.NEGATIVE_INFINITY, listed[0]);
      assertThat(implicit.above(listed[listed.length - 1])).isEqualTo(Double.POSITIVE_INFINITY);
    }
  }

  @Test
  void walshMedianWithMultiplicitiesEqualsTheExpandedSamplesMedian() {
    SplittableRandom rng = new SplittableRandom(33);
    for (int trial = 0; trial < 200; trial++) {
      double[] sorted = sample(rng, 1 + rng.nextInt(25));
      Arrays.sort(sorted);
      long[] counts = new long[sorted.length];
      counts[rng.nextInt(sorted.length)] = 1;
      for (int i = 0; i < sorted.length; i++) {
        counts[i] += rng.nextInt(4); // zeros included
      }
      double[] expanded = expand(sorted, counts);
      assertThat(WalshAverages.ofSorted(sorted, counts).median())
          .isEqualTo(HodgesLehmann.estimate(HodgesLehmann.walshAverages(expanded)));
    }
  }

  @Test
  void hodgesLehmannEstimateEqualsTheListedMedianBitForBit() {
    SplittableRandom rng = new SplittableRandom(34);
    for (int trial = 0; trial < 40; trial++) {
      double[] d = sample(rng, 1 + rng.nextInt(400));
      assertThat(HodgesLehmann.walshMedian(d))
          .isEqualTo(HodgesLehmann.estimate(HodgesLehmann.walshAverages(d)));
    }
  }

  @Test
  void shiftSelectionEqualsTheSortedListingAtEveryRank() {
    SplittableRandom rng = new SplittableRandom(35);
    for (int trial = 0; trial < 100; trial++) {
      double[] x = sample(rng, 1 + rng.nextInt(20));
      double[] y = sample(rng, 1 + rng.nextInt(20));
      double[] listed = HodgesLehmann.shiftDifferences(x, y);
      ShiftDifferences implicit = new ShiftDifferences(x, y);
      for (int r = 1; r <= listed.length; r++) {
        assertThat(implicit.kth(r)).isEqualTo(listed[r - 1]);
      }
      for (double t : listed) {
        assertThat(implicit.above(t)).isEqualTo(firstAbove(listed, t));
      }
    }
  }

  @Test
  void twoSampleEstimateAndIntervalEqualTheListingBitForBit() {
    SplittableRandom rng = new SplittableRandom(36);
    for (int trial = 0; trial < 40; trial++) {
      double[] x = sample(rng, 1 + rng.nextInt(300));
      double[] y = sample(rng, 1 + rng.nextInt(300));
      double[] listed = HodgesLehmann.shiftDifferences(x, y);
      assertThat(HodgesLehmann.shiftMedian(x, y)).isEqualTo(HodgesLehmann.estimate(listed));
      for (double alpha : new double[] {0.05, 0.0125}) {
        assertThat(HodgesLehmann.shiftInterval(x, y, alpha))
            .isEqualTo(HodgesLehmann.shiftInterval(listed, x.length, y.length, alpha));
      }
    }
  }

  @Test
  void estimateOfThreeThousandHeavyTailedDifferencesMatchesNumpy() {
    assertThat(HodgesLehmann.walshMedian(heavy(7, 3000, 0.02)))
        .isCloseTo(0.018757333869260817, within(NUMPY));
  }

  @Test
  void twoSampleEstimateAndIntervalAtTwoThousandPerArmMatchNumpy() {
    double[] x = heavy(8, 2000, 0.0);
    double[] y = heavy(9, 2500, 0.03);
    assertThat(HodgesLehmann.shiftMedian(x, y)).isCloseTo(0.028423398735692953, within(NUMPY));
    assertThat(MannWhitney.intervalIndex(2000, 2500, 0.05)).isEqualTo(2415122);
    double[] ci = HodgesLehmann.shiftInterval(x, y, 0.05);
    assertThat(ci[0]).isCloseTo(0.026513040992067874, within(NUMPY));
    assertThat(ci[1]).isCloseTo(0.03033552667460041, within(NUMPY));
  }

  @Test
  void noEstimateForEmptySamples() {
    assertThat(HodgesLehmann.walshMedian(new double[0])).isNaN();
    assertThat(HodgesLehmann.shiftMedian(new double[0], new double[] {1})).isNaN();
    assertThat(HodgesLehmann.shiftInterval(new double[0], new double[] {1}, 0.05)).isNull();
  }

  /**
   * reference_values.py heavy(): shift + uniform noise + a ratio of uniforms, from the minimal
   * standard generator, so that numpy saw the very same doubles.
   */
  static double[] heavy(long seed, int n, double shift) {
    double[] u = new double[3 * n];
    for (int k = 0; k < u.length; k++) {
      seed = seed * 48271 % 2147483647;
      u[k] = seed / 2147483647.0;
    }
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = shift + 0.1 * (u[3 * i] - 0.5)
          + 0.01 * (u[3 * i + 1] - 0.5) / (u[3 * i + 2] + 0.05);
    }
    return d;
  }

  /** Normal values, a fifth of them on a coarse grid (ties), some exactly 0. */
  private static double[] sample(SplittableRandom rng, int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      double v = 0.02 + 0.05 * rng.nextGaussian();
      d[i] = rng.nextInt(5) == 0 ? Math.rint(v * 50) / 50 + 0.0 : v; // + 0.0: no -0.0
    }
    return d;
  }

  private static double[] expand(double[] values, long[] counts) {
    double[] out = new double[(int) Arrays.stream(counts).sum()];
    int at = 0;
    for (int i = 0; i < values.length; i++) {
      for (long c = 0; c < counts[i]; c++) {
        out[at++] = values[i];
      }
    }
    return out;
  }

  private static long countAtMost(double[] sorted, double x) {
    return Arrays.stream(sorted).filter(v -> v <= x).count();
  }

  private static double firstAbove(double[] sorted, double x) {
    return Arrays.stream(sorted).filter(v -> v > x).min().orElse(Double.POSITIVE_INFINITY);
  }

  private static double lastBelow(double[] sorted, double x) {
    return Arrays.stream(sorted).filter(v -> v < x).max().orElse(Double.NEGATIVE_INFINITY);
  }

  private static double lastAtMost(double[] sorted, double x) {
    return Arrays.stream(sorted).filter(v -> v <= x).max().orElse(Double.NEGATIVE_INFINITY);
  }
}
