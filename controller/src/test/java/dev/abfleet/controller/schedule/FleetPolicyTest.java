package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetPolicyTest {
  final FleetPolicy policy = FleetPolicy.defaults();

  @Test
  void quarantinesAtMostAQuarterOfTheFleetButAlwaysOneHostOfTwoOrMore() {
    assertThat(policy.mayQuarantine(8, 1)).isTrue();
    assertThat(policy.mayQuarantine(8, 2)).as("25% of 8 = 2").isFalse();
    assertThat(policy.mayQuarantine(2, 0)).as("at least one host").isTrue();
    assertThat(policy.mayQuarantine(2, 1)).isFalse();
  }

  @Test
  void neverQuarantinesTheOnlyHost() {
    assertThat(policy.mayQuarantine(1, 0)).isFalse();
  }

  @Test
  void leaseTimeoutIsTwiceTheSumOfTheBootTimeouts() {
    RunPlan run = new RunPlan("r", "a", 0, null, null, "", 1, 512,
        new BenchmarkSpec("", List.of(), 0, 0, 0), 120, "qemu");
    Block block = new Block("b", "e", 0, "h1", 1, List.of(run, run));

    assertThat(policy.leaseTimeout(block)).isEqualTo(Duration.ofSeconds(480));
  }

  @Test
  void rejectsACapOutsideZeroToOne() {
    assertThatThrownBy(() -> new FleetPolicy(3, 1.5, Duration.ofMinutes(1), 2))
        .hasMessageContaining("quarantineCap 1.5");
  }
}
