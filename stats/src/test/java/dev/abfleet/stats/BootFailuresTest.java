package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;

/** Reference: scipy.stats.fisher_exact in reference_values.py. */
class BootFailuresTest {
  @Test
  void fisherPMatchesScipy() {
    assertThat(BootFailures.fisherTwoSided(1, 31, 7, 25))
        .isCloseTo(0.05342127199075768, withinPercentage(1e-7));
    assertThat(BootFailures.fisherTwoSided(0, 32, 3, 29))
        .isCloseTo(0.23809523809523814, withinPercentage(1e-7));
  }

  @Test
  void candidateFailingEightOfThirtyTwoBootsIsRegressed() {
    BootFailureComparison c = BootFailures.compare(0, 32, 8, 32, 0.05);
    assertThat(c.pValue()).isCloseTo(0.004752782205583423, withinPercentage(1e-7));
    assertThat(c.verdict()).isEqualTo(Verdict.REGRESSED);
  }

  @Test
  void oneAgainstSevenFailuresIsNotYetSignificant() {
    BootFailureComparison c = BootFailures.compare(1, 32, 7, 32, 0.05);
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.note()).isNotEmpty();
  }

  @Test
  void candidateFailingLessOftenIsImproved() {
    assertThat(BootFailures.compare(8, 32, 0, 32, 0.05).verdict()).isEqualTo(Verdict.IMPROVED);
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
}
