package dev.abfleet.cli.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.abfleet.config.Problem;
import org.junit.jupiter.api.Test;

class PowerPlanTest {
  /*
   * Reference values from scipy 1.x:
   *   python3 -c "from scipy.stats import norm; import math
   *   for sd,mde,a,m,p in [(0.029,0.02,0.05,4,0.8),(0.01,0.05,0.05,1,0.9),(0.05,0.02,0.01,3,0.8),(0.002,0.02,0.05,4,0.8)]:
   *     n=((norm.ppf(1-a/(2*m))+norm.ppf(p))*sd/math.log(1+mde))**2/(3/math.pi); print(n, max(6, math.ceil(n)))"
   *   25.043602867608755 26
   *   0.4622322870230824 6
   *   95.23042777469986 96
   *   0.1191134500242985 6
   */
  @Test
  void pairsMatchTheScipyComputedFormula() {
    assertThat(PowerPlan.pairs(0.029, 0.02, 0.05, 4, 0.8)).isEqualTo(26);
    assertThat(PowerPlan.pairs(0.05, 0.02, 0.01, 3, 0.8)).isEqualTo(96);
  }

  @Test
  void neverFewerThanSixPairs() {
    assertThat(PowerPlan.pairs(0.01, 0.05, 0.05, 1, 0.9)).isEqualTo(6);
    assertThat(PowerPlan.pairs(0.002, 0.02, 0.05, 4, 0.8)).isEqualTo(6);
  }

  @Test
  void unknownNoisePlansNothing() {
    assertThat(PowerPlan.pairs(Double.NaN, 0.02, 0.05, 4, 0.8)).isEqualTo(-1);
    assertThat(PowerPlan.pairs(0, 0.02, 0.05, 4, 0.8)).isEqualTo(-1);
  }

  @Test
  void mdeIsAPercentOrAFraction() {
    assertThat(PlanCommand.parseMde("2%")).isCloseTo(0.02, within(1e-12));
    assertThat(PlanCommand.parseMde("0.02")).isCloseTo(0.02, within(1e-12));
    for (String bad : new String[] {"0", "100%", "2", "-1%", "two", ""}) {
      assertThatThrownBy(() -> PlanCommand.parseMde(bad)).isInstanceOf(Problem.class)
          .hasMessageContaining("--mde '" + bad + "'").hasMessageContaining("--mde 2% or 0.02, between 0 and 100%");
    }
  }
}
