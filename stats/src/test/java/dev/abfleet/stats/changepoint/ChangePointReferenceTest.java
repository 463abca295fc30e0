package dev.abfleet.stats.changepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Values from stats/src/test/python/changepoint_reference.py (scipy 1.17.1, exact enumeration). */
class ChangePointReferenceTest {
  private static final double[] SERIES =
      {10.0, 11.0, 10.5, 10.0, 9.8, 10.2, 12.0, 12.5, 11.9, 12.5, 12.2, 12.0};
  private static final double[] Z = {1.10940039245, 1.698415551217, 2.517193623118,
      2.882306768492, 2.598393417412, 1.868257106339, 1.941450686788};

  @Test
  void splitStatisticMatchesScipyMannWhitneyAtEverySplitWithTies() {
    double[] ranks = RankScan.midRanks(SERIES);
    for (int t = 3; t <= 9; t++) {
      assertThat(RankScan.z(ranks, t)).as("split %d", t).isCloseTo(Z[t - 3], within(1e-9));
    }
  }

  @Test
  void bestSplitMatchesReference() {
    RankScan.Best best = RankScan.best(RankScan.midRanks(SERIES), 3);
    assertThat(best.index()).isEqualTo(6);
    assertThat(best.z()).isCloseTo(2.8823067684915684, within(1e-12));
  }

  @Test
  void permutationPOfAStepMatchesExactEnumeration() {
    assertPermutationP(new double[] {5.0, 5.2, 4.9, 5.1, 6.0, 6.3, 6.1, 6.2}, 4,
        2.3094010767585034, 0.02857142857142857);
  }

  @Test
  void permutationPOfASpikeMatchesExactEnumeration() {
    assertPermutationP(new double[] {5.0, 5.2, 4.9, 9.9, 5.1, 5.0, 5.3, 4.8}, 3,
        0.5962847939999439, 0.8875);
  }

  @Test
  void permutationPOfAnAmbiguousSeriesMatchesExactEnumeration() {
    assertPermutationP(new double[] {5.0, 5.6, 4.9, 5.1, 5.4, 6.3, 5.0, 6.2}, 4,
        1.299038105676658, 0.41964285714285715);
  }

  private static void assertPermutationP(double[] v, int index, double z, double exactP) {
    double[] ranks = RankScan.midRanks(v);
    RankScan.Best best = RankScan.best(ranks, 3);
    assertThat(best.index()).isEqualTo(index);
    assertThat(best.z()).isCloseTo(z, within(1e-12));
    // 100k permutations: standard error below 0.0016 for any p; 0.006 is about 4 of them.
    double p = RankScan.permutationP(ranks, 3, best.z(), 100_000, new SplittableRandom(7));
    assertThat(p).isCloseTo(exactP, within(0.006));
  }
}
