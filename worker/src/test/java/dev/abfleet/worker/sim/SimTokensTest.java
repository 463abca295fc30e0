package dev.abfleet.worker.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SimTokensTest {

  @Test
  void readsEffectsAndFailRateAmongOrdinaryKernelArguments() {
    SimTokens t = SimTokens.parse("quiet sim.effect.metadata_stat=1.58 slub_debug=FZPU sim.fail_rate=0.1"
        + " sim.effect.seq_read=0.965");

    assertThat(t.effects()).isEqualTo(Map.of("metadata_stat", 1.58, "seq_read", 0.965));
    assertThat(t.effect("metadata_stat")).isEqualTo(1.58);
    assertThat(t.effect("create_delete")).isEqualTo(1.0);
    assertThat(t.failRate()).hasValue(0.1);
    assertThat(t.errors()).isEmpty();
  }

  @Test
  void anEmptyCommandLineAsksForNothing() {
    SimTokens t = SimTokens.parse("");

    assertThat(t.effects()).isEmpty();
    assertThat(t.failRate()).isEmpty();
    assertThat(t.errors()).isEmpty();
  }

  @Test
  void reportsAMisspelledSimToken() {
    assertThat(SimTokens.parse("sim.efect.metadata_stat=2").errors())
        .containsExactly("unknown sim token 'sim.efect.metadata_stat=2'; expected sim.effect.<metric>=<factor>"
            + " or sim.fail_rate=<probability>");
  }

  @Test
  void reportsANonPositiveFactor() {
    assertThat(SimTokens.parse("sim.effect.seq_read=0").errors())
        .singleElement().asString().contains("the factor must be a number > 0");
  }

  @Test
  void reportsAFailRateOutsideZeroToOne() {
    assertThat(SimTokens.parse("sim.fail_rate=abc").errors())
        .singleElement().asString().contains("the rate must be a probability from 0 to 1");
  }

  @Test
  void aHostPrefixedEffectAppliesOnlyOnMatchingHostsAndTheLongestPrefixWins() {
    SimTokens t = SimTokens.parse("sim.effect.metadata_stat=1.1 sim.effect.metadata_stat@b-=0.8"
        + " sim.effect.metadata_stat@b-01=0.5");

    assertThat(t.errors()).isEmpty();
    assertThat(t.effect("metadata_stat", "a-0001")).isEqualTo(1.1);
    assertThat(t.effect("metadata_stat", "b-0002")).isEqualTo(0.8);
    assertThat(t.effect("metadata_stat", "b-0100")).isEqualTo(0.5);
    assertThat(t.effect("seq_read", "b-0002")).isEqualTo(1.0);
  }

  @Test
  void reportsAnEmptyOrMalformedHostPrefix() {
    assertThat(SimTokens.parse("sim.effect.metadata_stat@=0.8").errors()).singleElement().asString()
        .startsWith("'sim.effect.metadata_stat@=0.8': expected sim.effect.<metric>@<host-prefix>=<factor>");
    assertThat(SimTokens.parse("sim.effect.metadata_stat@a/b=0.8").errors()).hasSize(1);
  }

  @Test
  void reportsAHostEffectGivenTwice() {
    assertThat(SimTokens.parse("sim.effect.seq_read@b-=0.8 sim.effect.seq_read@b-=0.9").errors())
        .containsExactly("'sim.effect.seq_read@b-=0.9': sim.effect.seq_read@b- is given twice; keep one");
  }
}
