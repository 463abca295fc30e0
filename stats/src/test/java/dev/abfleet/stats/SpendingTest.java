package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Published Lan-DeMets O'Brien-Fleming boundaries for five equally spaced looks at two-sided
 * alpha 0.05 are 4.8769, 3.3569, 2.6803, 2.2898, 2.0310; reference_values.py checks by
 * simulating the correlated normals that they cross with probability 0.0500.
 */
class SpendingTest {
  @Test
  void fiveEqualLooksMatchPublishedBoundaries() {
    double[] c = Spending.boundaries(0.05, new double[] {0.2, 0.4, 0.6, 0.8, 1.0});
    assertThat(c[0]).isCloseTo(4.8769, within(1e-3));
    assertThat(c[1]).isCloseTo(3.3569, within(1e-3));
    assertThat(c[2]).isCloseTo(2.6803, within(1e-3));
    assertThat(c[3]).isCloseTo(2.2898, within(1e-3));
    assertThat(c[4]).isCloseTo(2.0310, within(1e-3));
  }

  @Test
  void oneLookSpendsAllAlphaAtOnce() {
    assertThat(Spending.boundaries(0.05, new double[] {1.0})[0]).isCloseTo(1.959964,
        within(1e-6));
  }

  @Test
  void lastLookNominalLevelIsBelowAlphaButNotFarBelow() {
    SequentialPlan plan = SequentialPlan.of(List.of(8, 16, 24, 32), 0.05);
    assertThat(plan.nominalAlpha(3, 0.05)).isBetween(0.035, 0.05);
    assertThat(plan.nominalAlpha(0, 0.05)).isLessThan(0.001);
  }

  @Test
  void fixedSamplePlanUsesAlphaItself() {
    assertThat(SequentialPlan.of(List.of(), 0.05).nominalAlpha(0, 0.0125)).isEqualTo(0.0125);
  }
}
