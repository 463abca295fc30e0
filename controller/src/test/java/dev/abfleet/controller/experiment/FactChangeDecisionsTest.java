package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.experiment.Decisions.Decision;
import dev.abfleet.controller.experiment.ExperimentEvent.BlockAbandoned;
import dev.abfleet.controller.experiment.ExperimentEvent.PairCompleted;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.HostQuiet;
import dev.abfleet.controller.plan.RunPlan;
import dev.abfleet.report.BootHost;
import org.junit.jupiter.api.Test;

/** A pair never spans a change of the host's facts (a QEMU upgrade between its two boots). */
class FactChangeDecisionsTest {
  static BootHost facts(String qemu) {
    return new BootHost(HostQuietDecisionsTest.QUIET.pressure(), new BootHost.Facts(qemu, "6.1.0-50-amd64",
        "Intel(R) Xeon(R) Processor", "0x1", "off", "", "", "madvise", 24_151, "0-1"), false);
  }

  static final BootHost QEMU_7 = facts("QEMU emulator version 7.2.22");
  static final BootHost QEMU_8 = facts("QEMU emulator version 8.2.2");

  final HostQuietDecisionsTest kit = new HostQuietDecisionsTest();

  /** Records the block's boots, the first on {@code first}'s facts, the others on {@code rest}'s. */
  Decision runBlock(Block block, BootHost first, BootHost rest) {
    Decision last = null;
    for (int i = 0; i < block.runs().size(); i++) {
      RunPlan run = block.runs().get(i);
      RunOutcome o = HostQuietDecisionsTest.boot(run, block.leaseEpoch(), RunOutcome.Status.OK, i == 0 ? first : rest);
      last = Decisions.recordRun(kit.state, o, block.blockId());
      kit.apply(last.events());
    }
    return last;
  }

  @Test
  void aQemuUpgradeBetweenAPairsBootsRunsThePairAgain() {
    kit.submit(HostQuiet.OFF, 1);
    Block first = kit.start();

    Decision d = runBlock(first, QEMU_7, QEMU_8);

    assertThat(d.result()).isEqualTo(RecordResult.ABANDONED);
    assertThat(d.events()).noneMatch(PairCompleted.class::isInstance);
    assertThat(d.events()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(BlockAbandoned.class,
        a -> assertThat(a.reason()).contains("hypervisor_version changed within pair 0")
            .contains("'QEMU emulator version 7.2.22' -> 'QEMU emulator version 8.2.2'")));
    assertThat(kit.state.pairs()).isEmpty();

    Decision again = runBlock(kit.start(), QEMU_8, QEMU_8);

    assertThat(again.events()).anyMatch(PairCompleted.class::isInstance);
    assertThat(kit.state.pairs()).containsKey(0);
  }

  @Test
  void aChangeBetweenPairsKeepsBothPairs() {
    kit.submit(HostQuiet.OFF, 2);

    runBlock(kit.start(), QEMU_7, QEMU_7);
    Decision second = runBlock(kit.start(), QEMU_8, QEMU_8);

    assertThat(second.events()).anyMatch(PairCompleted.class::isInstance);
    assertThat(kit.state.pairs()).hasSize(2);
  }

  @Test
  void aFactTheWorkerCouldNotReadIsNoChange() {
    kit.submit(HostQuiet.OFF, 1);

    Decision d = runBlock(kit.start(), QEMU_7, facts(""));

    assertThat(d.events()).anyMatch(PairCompleted.class::isInstance);
  }
}
