package dev.abfleet.controller.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Policy;
import org.junit.jupiter.api.Test;

class ExperimentFactsLookTest {
  private static Experiment experiment(String state, int pairsDone, int... looks) {
    Policy.Builder p = Policy.newBuilder();
    for (int l : looks) {
      p.addLooks(l);
    }
    return Experiment.newBuilder().setState(state).setPairsDone(pairsDone)
        .setSpec(ExperimentSpec.newBuilder().setPolicy(p)).build();
  }

  @Test
  void aRunningDesignNamesTheLookItIsHeadingFor() {
    assertThat(ExperimentFacts.look(experiment("running", 0, 8, 16, 24))).isEqualTo("look 1 of 3 at 8 pairs");
    assertThat(ExperimentFacts.look(experiment("running", 12, 8, 16, 24))).isEqualTo("look 2 of 3 at 16 pairs");
    assertThat(ExperimentFacts.look(experiment("running", 16, 8, 16, 24))).isEqualTo("look 3 of 3 at 24 pairs");
  }

  @Test
  void anEndedDesignNamesTheLastLookItReachedNotTheNextOne() {
    assertThat(ExperimentFacts.look(experiment("completed", 16, 8, 16, 24)))
        .isEqualTo("stopped at look 2 of 3, 16 pairs");
    assertThat(ExperimentFacts.look(experiment("completed", 24, 8, 16, 24)))
        .isEqualTo("stopped at look 3 of 3, 24 pairs");
    assertThat(ExperimentFacts.look(experiment("cancelled", 5, 8, 16, 24))).isEqualTo("ended before look 1 of 3");
  }

  @Test
  void aFixedSizeDesignHasNoLook() {
    assertThat(ExperimentFacts.look(experiment("completed", 10, 10))).isEmpty();
  }
}
