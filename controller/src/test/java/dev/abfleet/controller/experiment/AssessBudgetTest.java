package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AssessBudgetTest {
  private static final long MS = 1_000_000;

  @Test
  void aComputationIsOwedUntilTheShareHasDrainedIt() {
    AssessBudget budget = new AssessBudget(0.2);
    assertThat(budget.available(0)).isTrue();

    budget.spent(10 * MS, 0);

    assertThat(budget.available(49 * MS)).as("10 ms at 0.2 cores drains in 50 ms").isFalse();
    assertThat(budget.available(50 * MS)).isTrue();
  }

  @Test
  void manyExperimentsShareOneBudgetSoTheNodeSpendsAtMostItsShare() {
    AssessBudget budget = new AssessBudget(0.2);
    long now = 0;
    long spent = 0;
    // 100 experiments asking every millisecond for 10 s, each computation 5 ms of CPU
    for (long t = 0; t < 10_000; t++) {
      now = t * MS;
      for (int e = 0; e < 100; e++) {
        if (budget.available(now)) {
          budget.spent(5 * MS, now);
          spent += 5 * MS;
        }
      }
    }
    assertThat((double) spent / now).as("CPU share over 10 s").isBetween(0.19, 0.21);
  }

  @Test
  void aShareOfNothingIsRefused() {
    assertThatThrownBy(() -> new AssessBudget(0)).hasMessageContaining("need > 0 cores");
  }
}
