package dev.abfleet.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.experiment.ExperimentEvent;
import dev.abfleet.controller.experiment.ExperimentState;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecoveryBenchTest {

  @Test
  void journalHasExactlyTheEventsAskedForAndLeavesTheExperimentRunningWithNothingInFlight() {
    List<ExperimentEvent> journal = RecoveryBench.journal("e1", 1003);

    ExperimentState state = ExperimentState.empty("e1");
    for (ExperimentEvent e : journal) {
      state = state.apply(e);
    }
    assertThat(journal).hasSize(1003);
    assertThat(state.running()).as("recovery ends with a request for hosts").isTrue();
    assertThat(state.inFlight()).as("no block for the recovery to abandon").isEmpty();
    assertThat(state.pairs()).hasSize(250);
    assertThat(state.rejectedStale()).isEqualTo(2);
  }
}
