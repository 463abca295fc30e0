package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentViewTest {
  static ExperimentView view(String state, int done, int wanted, long meanBlockMs) {
    return new ExperimentView("e1", Specs.ab(wanted, 1), state, done, wanted, 1,
        dev.abfleet.stats.verdict.Assessment.EMPTY,
        List.of(), "", 0, 0, meanBlockMs);
  }

  @Test
  void etaIsRemainingRoundsOfObservedBlocks() {
    // 5 pairs left on 2 hosts = 3 rounds of 8 s.
    assertThat(view("running", 3, 8, 8_000).etaSeconds(2)).isEqualTo(24);
  }

  @Test
  void etaAssumesOneHostWhileQueued() {
    assertThat(view("running", 6, 8, 1_500).etaSeconds(0)).isEqualTo(3);
  }

  @Test
  void etaIsUnknownBeforeTheFirstBlockAndAfterTheEnd() {
    assertThat(view("running", 0, 8, 0).etaSeconds(2)).isZero();
    assertThat(view("completed", 8, 8, 8_000).etaSeconds(2)).isZero();
  }
}
