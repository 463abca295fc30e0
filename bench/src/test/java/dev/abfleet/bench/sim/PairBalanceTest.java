package dev.abfleet.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairBalanceTest {

  private static Experiment experiment(String... pairs) {
    Experiment.Builder e = Experiment.newBuilder().setSpec(ExperimentSpec.newBuilder()
        .addArms(Arm.newBuilder().setName("base").setRole("baseline"))
        .addArms(Arm.newBuilder().setName("cand").setRole("candidate")));
    // Each pair as "host:AB" or "host:BA".
    for (int i = 0; i < pairs.length; i++) {
      String host = pairs[i].split(":")[0];
      boolean ab = pairs[i].endsWith("AB");
      e.addBoots(Boot.newBuilder().setPairIndex(i).setHostId(host).setOrderInPair(0).setArm(ab ? "base" : "cand"));
      e.addBoots(Boot.newBuilder().setPairIndex(i).setHostId(host).setOrderInPair(1).setArm(ab ? "cand" : "base"));
    }
    return e.build();
  }

  @Test
  void countsAnExperimentWithThreeMoreAbThanBaAsUnbalanced() {
    PairBalance b = PairBalance.of(List.of(
        experiment("h1:AB", "h2:AB", "h3:AB", "h4:BA"),
        experiment("h1:AB", "h2:BA")));

    assertThat(b.experiments()).isEqualTo(2);
    assertThat(b.unbalancedExperiments()).isEqualTo(1);
  }

  @Test
  void countsAHostThatRanOnlyAbPairsOfOneExperiment() {
    PairBalance b = PairBalance.of(List.of(experiment("h1:AB", "h1:AB", "h2:BA", "h2:BA", "h3:AB", "h3:BA")));

    assertThat(b.unbalancedExperiments()).isZero();
    assertThat(b.cells()).isEqualTo(3);
    assertThat(b.unbalancedCells()).isEqualTo(2);
  }
}
