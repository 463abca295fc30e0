package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Reference: the resample written out value by value, its Walsh averages sorted and their
 * median taken ({@link HodgesLehmann#estimate}), the definition the weighted median replaces.
 */
class WalshResamplerTest {
  private static double byDefinition(double[] d, int[] counts) {
    int m = 0;
    for (int c : counts) {
      m += c;
    }
    double[] sample = new double[m];
    int at = 0;
    for (int i = 0; i < d.length; i++) {
      for (int c = 0; c < counts[i]; c++) {
        sample[at++] = d[i];
      }
    }
    return HodgesLehmann.estimate(HodgesLehmann.walshAverages(sample));
  }

  @Test
  void weightedMedianEqualsTheResamplesOwnEstimateExactly() {
    SplittableRandom rng = new SplittableRandom(11);
    for (int trial = 0; trial < 200; trial++) {
      int n = 2 + rng.nextInt(40);
      double[] d = new double[n];
      for (int i = 0; i < n; i++) {
        d[i] = rng.nextInt(5) == 0 ? 0.25 : 0.05 * rng.nextGaussian(); // ties included
      }
      int[] counts = new int[n];
      int m = 1 + rng.nextInt(2 * n);
      for (int k = 0; k < m; k++) {
        counts[rng.nextInt(n)]++;
      }
      assertThat(new WalshResampler(d).estimate(counts, m))
          .isEqualTo(byDefinition(d, counts));
    }
  }

  @Test
  void selectionAboveOneHundredValuesEqualsTheResamplesOwnEstimateExactly() {
    SplittableRandom rng = new SplittableRandom(12);
    for (int trial = 0; trial < 20; trial++) {
      int n = WalshResampler.LISTED_MAX_N + 1 + rng.nextInt(150);
      double[] d = new double[n];
      for (int i = 0; i < n; i++) {
        d[i] = rng.nextInt(5) == 0 ? 0.25 : 0.05 * rng.nextGaussian(); // ties included
      }
      WalshResampler resampler = new WalshResampler(d);
      for (int draw = 0; draw < 5; draw++) {
        int[] counts = new int[n];
        int m = 1 + rng.nextInt(2 * n);
        for (int k = 0; k < m; k++) {
          counts[rng.nextInt(n)]++;
        }
        assertThat(resampler.estimate(counts, m)).isEqualTo(byDefinition(d, counts));
      }
    }
  }

  @Test
  void resampleTakingEveryValueOnceGivesTheSampleEstimate() {
    double[] d = {0.03, -0.01, 0.07, 0.02, 0.05};
    assertThat(new WalshResampler(d).estimate(new int[] {1, 1, 1, 1, 1}, 5))
        .isEqualTo(HodgesLehmann.estimate(HodgesLehmann.walshAverages(d)));
  }

  @Test
  void emptyResampleHasNoEstimate() {
    assertThat(new WalshResampler(new double[] {0.1, 0.2}).estimate(new int[2], 0)).isNaN();
  }
}
