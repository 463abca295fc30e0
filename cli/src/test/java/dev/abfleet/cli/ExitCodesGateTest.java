package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExitCodesGateTest {
  @Test
  void gateExitsZeroOnPassOneOnFailFourWhenInconclusive() {
    assertThat(ExitCodes.ofGate("pass", "holds")).isEqualTo(ExitCodes.OK);
    assertThat(ExitCodes.ofGate("fail", "regressed")).isEqualTo(ExitCodes.GATE).isEqualTo(1);
    assertThat(ExitCodes.ofGate("inconclusive", "inconclusive")).isEqualTo(ExitCodes.GATE_INCONCLUSIVE)
        .isEqualTo(4);
  }

  @Test
  void aControllerThatSendsNoGateIsJudgedByTheOverallVerdict() {
    assertThat(ExitCodes.ofGate("", "improved")).isEqualTo(ExitCodes.OK);
    assertThat(ExitCodes.ofGate("", "no_change")).isEqualTo(ExitCodes.OK);
    assertThat(ExitCodes.ofGate("", "holds")).isEqualTo(ExitCodes.OK);
    assertThat(ExitCodes.ofGate("", "regressed")).isEqualTo(ExitCodes.GATE);
    assertThat(ExitCodes.ofGate("", "inconclusive")).isEqualTo(ExitCodes.GATE_INCONCLUSIVE);
    assertThat(ExitCodes.ofGate("", "")).as("nothing decided is no pass").isEqualTo(ExitCodes.GATE_INCONCLUSIVE);
  }
}
