package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.experiment.ExperimentEvent.BlockStarted;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentSubmitted;
import dev.abfleet.controller.fleet.HostSelector;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A cross-host comparison plans the policy's pairs for every host class. */
class CrossHostPlanningTest {
  static ExperimentState submitted(HostSelector selector, List<String> classBy, int pairs) {
    ExperimentSpec spec = CrossHostSpecTest.with(selector, classBy);
    PolicySpec p = spec.policy();
    spec = new ExperimentSpec(spec.name(), spec.arms(), spec.benchmark(), selector,
        new PolicySpec(p.noiseThreshold(), p.alpha(), pairs, p.seed(), p.bootTimeoutS(),
            p.gatingMetrics(), p.looks(), classBy), spec.priority());
    return ExperimentState.empty("e1").apply(new ExperimentSubmitted("e1", spec, 7));
  }

  static ExperimentState start(ExperimentState s, int pair, String host, String cls) {
    return s.apply(new BlockStarted("b" + pair, pair, 0, host, 1, List.of("r" + pair + "a", "r" + pair + "b"),
        List.of("base", "cand"), cls, "", ""));
  }

  @Test
  void eachClassGetsThePolicysPairsAndNoMore() {
    ExperimentState s = submitted(HostSelector.any(), List.of("label:cpu"), 2);
    assertThat(s.pairsWanted()).isEqualTo(2);
    assertThat(s.nextPair("a1", true, "qemu/tcg cpu=a")).hasValue(0);
    s = start(s, 0, "a1", "qemu/tcg cpu=a");
    s = start(s, 1, "a1", "qemu/tcg cpu=a");
    assertThat(s.nextPair("a1", true, "qemu/tcg cpu=a")).isEmpty();
    assertThat(s.nextPair("b1", true, "qemu/tcg cpu=b")).hasValue(2);
    s = start(s, 2, "b1", "qemu/tcg cpu=b");
    assertThat(s.pairsWanted()).isEqualTo(4);
    assertThat(s.classCounts()).isEqualTo(Map.of("qemu/tcg cpu=a", 2, "qemu/tcg cpu=b", 1));
  }

  @Test
  void everySelectorHypervisorCountsAsAClassFromTheStart() {
    ExperimentState s = submitted(CrossHostSpecTest.hypervisors("qemu", "vz"), List.of(), 3);
    assertThat(s.pairsWanted()).isEqualTo(6);
  }

  @Test
  void anOrdinaryExperimentKeepsItsPairBudgetWhateverTheHosts() {
    ExperimentState s = submitted(HostSelector.any(), List.of(), 2);
    s = start(s, 0, "a1", "qemu/kvm");
    assertThat(s.nextPair("b1", true, "qemu/tcg")).hasValue(1);
    s = start(s, 1, "b1", "qemu/tcg");
    assertThat(s.pairsWanted()).isEqualTo(2);
    assertThat(s.nextPair("c1", true, "qemu/tcg")).isEmpty();
  }
}
