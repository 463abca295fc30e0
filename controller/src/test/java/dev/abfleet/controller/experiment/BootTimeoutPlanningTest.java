package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentSubmitted;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Blocks planned after boots completed carry timeouts from those boots' durations, per arm. */
class BootTimeoutPlanningTest {
  static ExperimentState submitted(int bootTimeoutS) {
    ExperimentSpec s = Specs.ab(8, 7);
    PolicySpec p = s.policy();
    ExperimentSpec spec = new ExperimentSpec(s.name(), s.arms(), s.benchmark(), s.selector(),
        new PolicySpec(p.noiseThreshold(), p.alpha(), p.pairs(), p.seed(), bootTimeoutS, p.gatingMetrics()),
        s.priority());
    return ExperimentState.empty("e1").apply(new ExperimentSubmitted("e1", spec, 7));
  }

  /** Plans, starts and records one block whose boots ran {@code runMs} per arm. */
  static ExperimentState runBlock(ExperimentState state, int pair, Map<String, Long> runMs,
      RunOutcome.Status status) {
    Block block = Decisions.planBlock(state, "h1", 1, pair);
    state = state.apply(Decisions.started(block, 0));
    for (RunPlan run : block.runs()) {
      RunOutcome outcome = new RunOutcome(run.runId(), "", "h1", 0, 0, 1, status, "tcg", "qemu", 3_000,
          runMs.get(run.arm()), 5, "6.1.0", List.of(new Sample("metadata_stat", 1000, "ops/s", "higher", 0, false)),
          "", "");
      for (ExperimentEvent e : Decisions.recordRun(state, outcome, block.blockId()).events()) {
        state = state.apply(e);
      }
    }
    return state;
  }

  static Map<String, Integer> timeouts(ExperimentState state, int pair) {
    return Decisions.planBlock(state, "h1", 1, pair).runs().stream()
        .collect(Collectors.toMap(RunPlan::arm, RunPlan::timeoutS));
  }

  @Test
  void blocksAfterThreeCompletedBootsOfAnArmFollowThreeTimesTheirMedian() {
    ExperimentState s = submitted(0);
    // Specs.ab's benchmark (2 metrics x 3 x 100 ms on tmpfs) estimates below the 180 s floor.
    assertThat(timeouts(s, 0)).isEqualTo(Map.of("base", 180, "cand", 180));
    s = runBlock(s, 0, Map.of("base", 100_000L, "cand", 200_000L), RunOutcome.Status.OK);
    s = runBlock(s, 1, Map.of("base", 110_000L, "cand", 220_000L), RunOutcome.Status.OK);
    assertThat(s.pairs()).hasSize(2);
    assertThat(timeouts(s, 2)).isEqualTo(Map.of("base", 180, "cand", 180));

    s = runBlock(s, 2, Map.of("base", 104_000L, "cand", 210_000L), RunOutcome.Status.OK);

    // base: median of 100, 104, 110 s = 104 s -> 312 s; cand: median of 200, 210, 220 s = 210 s -> 630 s.
    assertThat(timeouts(s, 3)).isEqualTo(Map.of("base", 312, "cand", 630));
    assertThat(Decisions.bootTimeout(s, s.spec().baseline()).text())
        .isEqualTo("adaptive 312 s (3 x median 104 s of 3 boots)");
  }

  @Test
  void bootsThatDidNotEndOkDoNotCount() {
    ExperimentState s = submitted(0);
    s = runBlock(s, 0, Map.of("base", 100_000L, "cand", 100_000L), RunOutcome.Status.OK);
    s = runBlock(s, 1, Map.of("base", 100_000L, "cand", 100_000L), RunOutcome.Status.OK);
    s = runBlock(s, 2, Map.of("base", 119_000L, "cand", 119_000L), RunOutcome.Status.HARNESS_FAILED);
    assertThat(s.pairs()).hasSize(3);

    assertThat(timeouts(s, 3)).isEqualTo(Map.of("base", 180, "cand", 180));
  }

  @Test
  void anExplicitBootTimeoutIsKeptAfterCompletedBoots() {
    ExperimentState s = submitted(150);
    for (int pair = 0; pair < 3; pair++) {
      s = runBlock(s, pair, Map.of("base", 140_000L, "cand", 140_000L), RunOutcome.Status.OK);
    }

    assertThat(timeouts(s, 3)).isEqualTo(Map.of("base", 150, "cand", 150));
    assertThat(Decisions.bootTimeout(s, s.spec().baseline()).text()).isEqualTo("fixed 150 s");
  }
}
