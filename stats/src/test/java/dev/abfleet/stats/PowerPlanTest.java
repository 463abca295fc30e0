package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.hipparchus.distribution.continuous.NormalDistribution;
import org.junit.jupiter.api.Test;

class PowerPlanTest {
  /*
   * Reference values from scipy 1.x: the normal plan, then Student's t at the n it gives until
   * n settles, at least 6 and the fewest pairs whose exact p reaches alpha/m:
   *   python3 -c "from scipy.stats import norm, t; import math
   *   def plan(sd,mde,thr,a,m,p):
   *     e=math.log1p(mde); g=e-math.log1p(thr)
   *     def need(df):
   *       qa = norm.ppf(1-a/(2*m)) if df<=0 else t.ppf(1-a/(2*m),df)
   *       qp = norm.ppf(p) if df<=0 else t.ppf(p,df)
   *       return max(6, math.ceil(max(((qa+qp)*sd/e)**2, (qp*sd/g)**2)/(3/math.pi) - 1e-9))
   *     fl=max(6, next(n for n in range(1,100) if 2/2**n <= a/m))
   *     n=max(fl,need(0))
   *     while True:
   *       nx=max(fl,need(n-1))
   *       if nx==n: break
   *       n=nx
   *     return need(0), n
   *   for c in [(0.05,0.025,0.02,0.05,1,0.8),(0.05,0.03,0.02,0.01,3,0.8),(0.08,0.03,0.02,0.05,4,0.8)]:
   *     print(c, plan(*c))"
   *   (0.05, 0.025, 0.02, 0.05, 1, 0.8) (78, 79)
   *   (0.05, 0.03, 0.02, 0.01, 3, 0.8) (43, 47)
   *   (0.08, 0.03, 0.02, 0.05, 4, 0.8) (86, 89)
   * (78 and 43: significance decides the second, the estimate beyond the threshold the first.)
   */
  @Test
  void plansAboveFortyPairsMatchTheScipyComputedFormula() {
    assertThat(PowerPlan.pairs(0.05, 0.025, 0.02, 0.05, 1, 0.8)).isEqualTo(79);
    assertThat(PowerPlan.pairs(0.05, 0.03, 0.02, 0.01, 3, 0.8)).isEqualTo(47);
    assertThat(PowerPlan.pairs(0.08, 0.03, 0.02, 0.05, 4, 0.8)).isEqualTo(89);
  }

  /**
   * At 6 pairs and alpha 5% the exact test rejects only when all six differences share a sign
   * (p = 2/64; the next pattern has 4/64), so with no threshold the power is P(d > 0)^6.
   */
  @Test
  void simulatedPowerAtSixPairsIsTheChanceThatAllSixDifferencesArePositive() {
    double sd = 0.03;
    double effect = Math.log1p(0.04);
    double exact = Math.pow(new NormalDistribution(0, 1).cumulativeProbability(effect / sd), 6);

    assertThat(exact).isCloseTo(0.547, within(0.001));
    // 2,000 runs: one standard error is about 0.011.
    assertThat(PowerPlan.simulatedPower(6, sd, effect, 0, 0.05)).isCloseTo(exact, within(0.035));
  }

  @Test
  void aSmallPlanIsTheFewestPairsWhoseSimulatedPowerReachesTheTarget() {
    double sd = 0.03;
    double effect = Math.log1p(0.04);
    double logThreshold = Math.log1p(0.02);
    long n = PowerPlan.pairs(sd, 0.04, 0.02, 0.05, 1, 0.8);

    assertThat(n).isBetween(7L, (long) PowerPlan.SIMULATED_UP_TO);
    assertThat(PowerPlan.simulatedPower((int) n, sd, effect, logThreshold, 0.05)).isGreaterThanOrEqualTo(0.8);
    assertThat(PowerPlan.simulatedPower((int) n - 1, sd, effect, logThreshold, 0.05)).isLessThan(0.8);
  }

  @Test
  void neverFewerPairsThanTheExactTestNeedsToReachItsShareOfAlpha() {
    // 2/2^6 = 3.1% reaches 5% (2/2^5 = 6.3% does not); four metrics need 2/2^n <= 1.25%: 8 pairs.
    assertThat(PowerPlan.fewestReaching(0.05, 1)).isEqualTo(6);
    assertThat(PowerPlan.fewestReaching(0.05, 4)).isEqualTo(8);
    assertThat(PowerPlan.pairs(0.002, 0.05, 0.02, 0.05, 1, 0.9)).isEqualTo(PowerPlan.MIN_PAIRS);
    assertThat(PowerPlan.pairs(0.002, 0.04, 0.02, 0.05, 4, 0.8)).isEqualTo(8);
  }

  @Test
  void unknownNoisePlansNothing() {
    assertThat(PowerPlan.pairs(Double.NaN, 0.04, 0.02, 0.05, 4, 0.8)).isEqualTo(-1);
    assertThat(PowerPlan.pairs(0, 0.04, 0.02, 0.05, 4, 0.8)).isEqualTo(-1);
  }

  @Test
  void aChangeWithinTheThresholdIsNeverCalled() {
    assertThat(PowerPlan.reachable(0.02, 0.02)).isFalse();
    assertThat(PowerPlan.reachable(0.021, 0.02)).isTrue();
    assertThatThrownBy(() -> PowerPlan.pairs(0.03, 0.02, 0.02, 0.05, 4, 0.8))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never called");
  }
}
