package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FleetConfigWarmupTest {
  @Test
  void warmupBootIsOffUnlessThePolicySetsIt() {
    assertThat(FleetConfigLoader.parse("f.yaml", "").policy().warmupBoot()).isFalse();
    assertThat(FleetConfigLoader.parse("f.yaml", "policy:\n  warmup_boot: true\n").policy().warmupBoot()).isTrue();
  }

  @Test
  void warmupBootThatIsNotABooleanNamesTheChoices() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "policy:\n  warmup_boot: sometimes\n"))
        .hasMessageContaining("warmup_boot").hasMessageContaining("true, false");
  }
}
