package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.PinNeed;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.GuestSetup;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentSpecPinningTest {
  private static ArmSpec arm(String name, ArmSpec.Role role, int vcpus, boolean pinned) {
    return new ArmSpec(name, role, new ArtifactRef("a".repeat(64), "/k/" + name, 0), null, "", vcpus, 512,
        new GuestSetup(pinned, List.of(), "", ""));
  }

  private static ExperimentSpec spec(ArmSpec... arms) {
    ExperimentSpec ab = Specs.ab(4, 1);
    return new ExperimentSpec("pin", List.of(arms), ab.benchmark(), ab.selector(), ab.policy(), "pr");
  }

  @Test
  void selectorNeedsACpuForEachVcpuOfTheLargestPinnedArm() {
    ExperimentSpec s = spec(arm("base", ArmSpec.Role.BASELINE, 8, false), arm("cand", ArmSpec.Role.CANDIDATE, 2, true),
        arm("ceil", ArmSpec.Role.CEILING, 4, true));

    assertThat(s.selector().pin()).isEqualTo(new PinNeed("ceil", 4));
  }

  @Test
  void pinnedArmWithTheDriverDefaultShapePinsOneVcpu() {
    ExperimentSpec s = spec(arm("base", ArmSpec.Role.BASELINE, 0, true), arm("cand", ArmSpec.Role.CANDIDATE, 0, false));

    assertThat(s.selector().pin()).isEqualTo(new PinNeed("base", 1));
  }

  @Test
  void specWithoutPinnedArmsNeedsNoCpus() {
    assertThat(Specs.ab(4, 1).selector().pin()).isEqualTo(PinNeed.NONE);
  }
}
