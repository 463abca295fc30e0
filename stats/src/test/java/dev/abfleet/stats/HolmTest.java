package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HolmTest {
  /**
   * Worked by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04;
   * running maximum 0.02, 0.03, 0.06, 0.06; back in input order.
   */
  @Test
  void adjustsStepDownWithRunningMaximum() {
    double[] adjusted = Holm.adjust(new double[] {0.01, 0.04, 0.03, 0.005});
    assertThat(adjusted[0]).isCloseTo(0.03, within(1e-12));
    assertThat(adjusted[1]).isCloseTo(0.06, within(1e-12));
    assertThat(adjusted[2]).isCloseTo(0.06, within(1e-12));
    assertThat(adjusted[3]).isCloseTo(0.02, within(1e-12));
  }

  @Test
  void capsAdjustedPAtOne() {
    assertThat(Holm.adjust(new double[] {0.4, 0.9})).containsExactly(0.8, 0.9);
  }

  @Test
  void missingPCountsAsOneAndStaysMissing() {
    double[] adjusted = Holm.adjust(new double[] {Double.NaN, 0.01});
    assertThat(adjusted[0]).isNaN();
    assertThat(adjusted[1]).isCloseTo(0.02, within(1e-12));
  }
}
