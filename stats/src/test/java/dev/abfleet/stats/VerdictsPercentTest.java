package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VerdictsPercentTest {
  @Test
  void levelsPrintWithTwoDecimalsAtMost() {
    assertThat(Verdicts.percent(0.95)).isEqualTo("95%");
    assertThat(Verdicts.percent(0.9875)).isEqualTo("98.75%");
    assertThat(Verdicts.percent(0.99)).isEqualTo("99%");
  }

  @Test
  void anEarlyLooksLevelBelowOneNeverReadsAHundredPercent() {
    // O'Brien-Fleming spends almost nothing at a first look: 1 - alpha can be 0.99999 or closer.
    assertThat(Verdicts.percent(0.99999)).isEqualTo("99.999%");
    assertThat(Verdicts.percent(1 - 2.5e-6)).matches("99\\.999[0-9]%");
    assertThat(Verdicts.percent(0.999996)).isEqualTo("99.9996%");
    assertThat(Verdicts.percent(1.0)).isEqualTo("100%");
  }
}
