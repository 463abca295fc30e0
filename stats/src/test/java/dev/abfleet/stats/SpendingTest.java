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

  /**
   * Linear spending (Kim-DeMets rho = 1) of two-sided 0.2 over four equal looks. Reference from
   * multivariate normal rectangle probabilities of the correlated Z_k (scipy
   * multivariate_normal.cdf, boundaries solved look by look with brentq; not the Simpson
   * recursion used here): 1.9600, 1.8071, 1.6712, 1.5518.
   */
  @Test
  void linearSpendingMatchesMultivariateNormalReference() {
    double[] c = Spending.boundaries(0.2, new double[] {0.25, 0.5, 0.75, 1.0},
        Spending.Function.LINEAR);
    assertThat(c[0]).isCloseTo(1.9600, within(1e-3));
    assertThat(c[1]).isCloseTo(1.8071, within(2e-3));
    assertThat(c[2]).isCloseTo(1.6712, within(2e-3));
    assertThat(c[3]).isCloseTo(1.5518, within(2e-3));
  }

  @Test
  void futilityLevelsWidenTheIntervalsLessAtLaterLooks() {
    Policy p = new Policy(0.02, 0.05, List.of(8, 16, 24, 32)).withFutility(0.05, 0.10);
    SequentialPlan plan = SequentialPlan.of(p);
    assertThat(plan.futilityLevel(0)).isCloseTo(0.05, within(1e-4));
    assertThat(plan.futilityLevel(3)).isCloseTo(0.1207, within(5e-4));
    assertThat(SequentialPlan.of(new Policy(0.02, 0.05, List.of(8, 16))).futilityLevel(0)).isNaN();
  }
}
