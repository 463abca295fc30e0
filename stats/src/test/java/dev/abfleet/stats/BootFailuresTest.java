package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Reference: scipy.stats.fisher_exact (alternative less/greater) in reference_values.py. */
class BootFailuresTest {
  @Test
  void oneSidedPMatchesScipy() {
    assertThat(BootFailures.fisherCandidateWorse(1, 31, 7, 25))
        .isCloseTo(0.026710635995378835, withinPercentage(1e-7));
    assertThat(BootFailures.fisherCandidateWorse(0, 32, 3, 29))
        .isCloseTo(0.11904761904761907, withinPercentage(1e-7));
    assertThat(BootFailures.fisherCandidateWorse(1, 7, 4, 4))
        .isCloseTo(0.14102564102564102, withinPercentage(1e-7));
    assertThat(BootFailures.fisherCandidateBetter(1, 31, 7, 25))
        .isCloseTo(0.9976236088972082, withinPercentage(1e-7));
    assertThat(BootFailures.fisherCandidateBetter(4, 4, 0, 8))
        .isCloseTo(0.038461538461538464, withinPercentage(1e-7));
  }

  @Test
  void candidateFailingFourOfEightBootsAgainstNoneIsRegressed() {
    BootFailureComparison c = BootFailures.compare(0, 8, 4, 8, 0.05);
    assertThat(c.pValue()).isCloseTo(0.038461538461538464, withinPercentage(1e-7));
    assertThat(c.verdict()).isEqualTo(Verdict.REGRESSED);
  }

  @Test
  void candidateFailingEightOfThirtyTwoBootsIsRegressed() {
    BootFailureComparison c = BootFailures.compare(0, 32, 8, 32, 0.05);
    assertThat(c.pValue()).isCloseTo(0.0023763911027917116, withinPercentage(1e-7));
    assertThat(c.verdict()).isEqualTo(Verdict.REGRESSED);
  }

  @Test
  void oneAgainstFourFailuresOfEightIsNotYetSignificant() {
    BootFailureComparison c = BootFailures.compare(1, 8, 4, 8, 0.05);
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.note()).isNotEmpty();
  }

  @Test
  void candidateFailingLessOftenIsImproved() {
    BootFailureComparison c = BootFailures.compare(4, 8, 0, 8, 0.05);
    assertThat(c.pValue()).isCloseTo(0.038461538461538464, withinPercentage(1e-7));
    assertThat(c.verdict()).isEqualTo(Verdict.IMPROVED);
  }

  @Test
  void equalFailureCountsAreInconclusive() {
    assertThat(BootFailures.compare(2, 8, 2, 8, 0.05).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void noFailuresIsNoChange() {
    BootFailureComparison c = BootFailures.compare(0, 32, 0, 32, 0.05);
    assertThat(c.pValue()).isEqualTo(1.0);
    assertThat(c.verdict()).isEqualTo(Verdict.NO_CHANGE);
  }

  @Test
  void impossibleCountsGiveNaNAndInconclusive() {
    BootFailureComparison c = BootFailures.compare(5, 3, 0, 0, 0.05);
    assertThat(c.pValue()).isNaN();
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  /** The gate's error: arms that fail equally often are called regressed at most alpha. */
  @Test
  void equalFailureRatesAreCalledRegressedAtMostAlpha() {
    SplittableRandom random = new SplittableRandom(13);
    for (double rate : new double[] {0.1, 0.3, 0.5}) {
      int regressed = 0;
      int runs = 20_000;
      for (int r = 0; r < runs; r++) {
        int a = failures(random, rate, 8);
        int c = failures(random, rate, 8);
        if (BootFailures.compare(a, 8, c, 8, 0.05).verdict() == Verdict.REGRESSED) {
          regressed++;
        }
      }
      // Fisher's conditional test is conservative: the rate stays below alpha beyond MC error.
      assertThat(regressed / (double) runs).as("rate %s", rate).isLessThan(0.05);
    }
  }

  private static int failures(SplittableRandom random, double rate, int boots) {
    int n = 0;
    for (int i = 0; i < boots; i++) {
      n += random.nextDouble() < rate ? 1 : 0;
    }
    return n;
  }
}
