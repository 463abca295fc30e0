package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** fleet.yaml refuses an A/B schedule whose pairs cannot decide, naming the file, line, schedule and key. */
class ScheduleDesignCheckTest {
  private static String schedule(String extra) {
    return "schedules:\n  - name: night\n    cron: '@daily'\n"
        + "    candidate: {newest_in: builds}\n    baseline: {last_accepted: stock-vmlinuz}\n" + extra;
  }

  @Test
  void refusesAnAbScheduleOfTwoPairs() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", schedule("    pairs: 2\n")))
        .isInstanceOf(Problem.class)
        .hasMessage("f.yaml:2: schedule night: pairs 2 cannot decide (the smallest p of 2 pairs is 0.5): with 6"
            + " gating metrics at alpha 0.05 the smallest design that can is 6 pairs; use pairs: 6 or more");
  }

  @Test
  void refusesAScheduleThatInheritsTooFewPolicyPairs() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "policy:\n  pairs: 5\n" + schedule("")))
        .isInstanceOf(Problem.class)
        .hasMessageContaining("schedule night: pairs 5 cannot decide");
  }

  @Test
  void acceptsSixPairsAndAnAaScheduleOfTwo() {
    FleetConfig cfg = FleetConfigLoader.parse("f.yaml", schedule("    pairs: 6\n")
        + "  - name: noise\n    kind: aa\n    cron: '0 4 * * *'\n    kernel: {path: vmlinuz}\n    pairs: 2\n");

    assertThat(cfg.schedules()).extracting(FleetConfig.Schedule::pairs).containsExactly(6, 2);
  }
}
