package dev.abfleet.controller.experiment;

import dev.abfleet.controller.plan.HostQuiet;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.experiment.Decisions.Decision;
import dev.abfleet.controller.experiment.ExperimentEvent.BlockAbandoned;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentFailed;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentSubmitted;
import dev.abfleet.controller.experiment.ExperimentEvent.PairCompleted;
import dev.abfleet.controller.grpc.DomainToProto;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.BootHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Quiet-host policy: what the experiment does with a boot whose host was not quiet. */
class HostQuietDecisionsTest {
  static final BootHost BUSY = new BootHost(
      new BootHost.Pressure(true, 37.2, 1_900_000, 0, 0, 0, 0, 3.1, 4, 15_000, 10_000, 6_000, 2),
      BootHost.Facts.NONE, true);
  static final BootHost QUIET = new BootHost(
      new BootHost.Pressure(true, 0.4, 10_000, 0, 0, 0, 0, 0.2, 1, 11_000, 10_000, 10_500, 2),
      BootHost.Facts.NONE, false);

  ExperimentState state;
  final List<ExperimentEvent> journal = new ArrayList<>();
  long epoch;

  void submit(HostQuiet quiet, int pairs) {
    ExperimentSpec s = Specs.ab(pairs, 7);
    ExperimentSpec spec = new ExperimentSpec(s.name(), s.arms(), s.benchmark(), s.selector(),
        s.policy().withHostQuiet(quiet), s.priority());
    state = ExperimentState.empty("e1");
    apply(List.of(new ExperimentSubmitted("e1", spec, 7)));
  }

  void apply(List<ExperimentEvent> events) {
    for (ExperimentEvent e : events) {
      journal.add(e);
      state = state.apply(e);
    }
  }

  Block start() {
    int pair = state.nextPair().orElseThrow();
    Block block = Decisions.planBlock(state, "h1", ++epoch, pair);
    apply(List.of(Decisions.started(block, state.attempts().getOrDefault(pair, 0))));
    return block;
  }

  static RunOutcome boot(RunPlan run, long epoch, RunOutcome.Status status, BootHost host) {
    RunOutcome o = status == RunOutcome.Status.OK ? Specs.ok(run.runId(), "h1", epoch, 1000)
        : Specs.failed(run.runId(), "h1", epoch, status);
    return o.withGuest(GuestFacts.NONE.withHost(host));
  }

  /** Records the block's boots, the first with {@code first}'s status and host, the rest ok and quiet. */
  Decision runBlock(Block block, RunOutcome.Status first, BootHost firstHost) {
    Decision last = null;
    for (int i = 0; i < block.runs().size(); i++) {
      RunPlan run = block.runs().get(i);
      RunOutcome o = i == 0 ? boot(run, block.leaseEpoch(), first, firstHost)
          : boot(run, block.leaseEpoch(), RunOutcome.Status.OK, QUIET);
      last = Decisions.recordRun(state, o, block.blockId());
      apply(last.events());
    }
    return last;
  }

  static HostQuiet rerun(int maxReruns) {
    return new HostQuiet(10, 60, HostQuiet.RERUN, maxReruns);
  }

  @Test
  void interferedBootAbandonsItsBlockUnchargedAndThePairRunsAgainWhole() {
    submit(rerun(2), 2);
    Block block = start();

    Decision d = runBlock(block, RunOutcome.Status.OK, BUSY);

    assertThat(d.result()).isEqualTo(RecordResult.ABANDONED);
    BlockAbandoned abandoned = (BlockAbandoned) d.events().get(d.events().size() - 1);
    assertThat(abandoned.interfered()).isTrue();
    assertThat(abandoned.charged()).isFalse();
    assertThat(abandoned.reason()).isEqualTo("host h1 was not quiet during run "
        + block.runs().get(0).runId() + " (cpu pressure 37.2% avg10, 19.0% over the run; other processes 45.0% of the cpu;"
        + " threshold 10%)");
    assertThat(state.pairs()).isEmpty();
    assertThat(state.abandoned()).isEmpty();
    assertThat(state.interferedReruns()).containsEntry(block.pairIndex(), 1);
    assertThat(state.nextPair()).hasValue(block.pairIndex());
    assertThat(state.reruns()).hasSize(2).allMatch(RunOutcome::rerun)
        .extracting(RunOutcome::arm).containsExactlyInAnyOrder("base", "cand");
  }

  @Test
  void rerunBootsAreListedButNeverCountedOrJudged() {
    submit(rerun(2), 1);
    runBlock(start(), RunOutcome.Status.OK, BUSY);
    Decision d = runBlock(start(), RunOutcome.Status.OK, QUIET);

    assertThat(d.events()).anyMatch(PairCompleted.class::isInstance);
    ExperimentView view = ExperimentView.of(state);
    Experiment wire = DomainToProto.experiment(view, 0, 0);
    assertThat(wire.getPairsDone()).isEqualTo(1);
    assertThat(wire.getInterferedReruns()).isEqualTo(1);
    assertThat(wire.getRetriedBlocks()).isEqualTo(1);
    assertThat(wire.getBootsList()).hasSize(4);
    assertThat(wire.getBootsList().stream().filter(b -> b.getRerun()).count()).isEqualTo(2);
    assertThat(wire.getBootsList().stream().filter(b -> !b.getRerun()))
        .allMatch(b -> !b.getTelemetry().getInterfered());
    assertThat(wire.getComparisonsList()).allMatch(c -> c.getNPairs() == 1);
    assertThat(wire.getBootFailuresList()).allMatch(f -> f.getBaselineBoots() == 1);
  }

  @Test
  void afterTheRerunLimitTheInterferedBootIsKeptInItsPair() {
    submit(rerun(1), 1);
    runBlock(start(), RunOutcome.Status.OK, BUSY);

    Decision d = runBlock(start(), RunOutcome.Status.OK, BUSY);

    assertThat(d.result()).isEqualTo(RecordResult.RECORDED);
    assertThat(d.events()).anyMatch(PairCompleted.class::isInstance);
    assertThat(state.pairs().get(0)).anyMatch(RunOutcome::interfered).noneMatch(RunOutcome::rerun);
    assertThat(state.interferedReruns()).containsEntry(0, 1);
  }

  @Test
  void keepPolicyPoolsTheInterferedBoot() {
    submit(new HostQuiet(10, 60, HostQuiet.KEEP, 2), 1);

    Decision d = runBlock(start(), RunOutcome.Status.OK, BUSY);

    assertThat(d.result()).isEqualTo(RecordResult.RECORDED);
    assertThat(d.events()).anyMatch(PairCompleted.class::isInstance);
    assertThat(state.interferedReruns()).isEmpty();
    assertThat(state.reruns()).isEmpty();
  }

  @Test
  void withoutAPolicyRunsCarryNoneAndInterferedBootsArePooledTimeoutsIncluded() {
    submit(HostQuiet.OFF, 1);
    Block block = start();
    assertThat(block.runs()).allSatisfy(r -> assertThat(r.hostQuiet()).isNull());

    Decision d = runBlock(block, RunOutcome.Status.TIMEOUT, BUSY);

    assertThat(d.result()).isEqualTo(RecordResult.RECORDED);
    assertThat(d.events()).anyMatch(PairCompleted.class::isInstance);
    assertThat(state.reruns()).isEmpty();
    assertThat(state.interferedReruns()).isEmpty();
  }

  @Test
  void interferedTimeoutRerunsEvenUnderKeepAndIsNoKernelFailure() {
    submit(new HostQuiet(10, 60, HostQuiet.KEEP, 2), 1);

    Decision d = runBlock(start(), RunOutcome.Status.TIMEOUT, BUSY);

    assertThat(d.result()).isEqualTo(RecordResult.ABANDONED);
    assertThat(d.events()).noneMatch(PairCompleted.class::isInstance);
    assertThat(state.abandoned()).isEmpty();
    assertThat(state.pairs()).isEmpty();
    assertThat(state.reruns()).anyMatch(o -> o.status() == RunOutcome.Status.TIMEOUT);
  }

  @Test
  void quietTimeoutIsAKernelResultAndCompletesThePair() {
    submit(rerun(2), 1);

    Decision d = runBlock(start(), RunOutcome.Status.TIMEOUT, QUIET);

    assertThat(d.events()).anyMatch(PairCompleted.class::isInstance);
    assertThat(state.pairs().get(0)).anyMatch(o -> o.status() == RunOutcome.Status.TIMEOUT);
  }

  @Test
  void interferedTimeoutsPastTheLimitAreChargedUntilTheExperimentFails() {
    submit(rerun(1), 1);
    runBlock(start(), RunOutcome.Status.TIMEOUT, BUSY);
    List<Decision> charged = new ArrayList<>();
    for (int i = 0; i < Decisions.MAX_ABANDONED_PER_PAIR; i++) {
      charged.add(runBlock(start(), RunOutcome.Status.TIMEOUT, BUSY));
    }

    assertThat(charged).allMatch(d -> d.events().stream()
        .anyMatch(e -> e instanceof BlockAbandoned b && b.charged() && b.interfered()));
    assertThat(charged.get(charged.size() - 1).events()).anySatisfy(e -> assertThat(e)
        .isInstanceOfSatisfying(ExperimentFailed.class, f -> assertThat(f.reason())
            .contains("re-runs for interference are spent").contains("policy.host_quiet.cpu_some_pct")));
    assertThat(state.status()).isEqualTo(ExperimentState.Status.FAILED);
    assertThat(state.pairs()).isEmpty();
  }

  @Test
  void warmupBootsAreNeverRerunForInterference() {
    submit(rerun(2), 1);
    ExperimentSpec s = state.spec();
    PolicySpec p = s.policy();
    ExperimentSpec warm = new ExperimentSpec(s.name(), s.arms(), s.benchmark(), s.selector(),
        new PolicySpec(p.noiseThreshold(), p.alpha(), p.pairs(), p.seed(), p.bootTimeoutS(),
            p.gatingMetrics(), p.looks(), p.classBy(), true, 0, 0, p.hostQuiet()), s.priority());
    state = ExperimentState.empty("e1");
    apply(List.of(new ExperimentSubmitted("e1", warm, 7)));
    Block block = start();
    assertThat(block.runs().get(0).warmup()).isTrue();

    Decision d = runBlock(block, RunOutcome.Status.OK, BUSY);

    assertThat(d.events()).anyMatch(PairCompleted.class::isInstance);
  }

  @Test
  void replayingTheJournalRebuildsTheRerunCountsAndBoots() {
    submit(rerun(2), 2);
    runBlock(start(), RunOutcome.Status.OK, BUSY);
    runBlock(start(), RunOutcome.Status.OK, QUIET);

    ExperimentState replayed = ExperimentState.empty("e1");
    for (ExperimentEvent e : journal) {
      replayed = replayed.apply(e);
    }

    assertThat(replayed.interferedReruns()).isEqualTo(state.interferedReruns());
    assertThat(replayed.reruns()).isEqualTo(state.reruns()).hasSize(2);
    assertThat(Set.copyOf(replayed.pairs().keySet())).isEqualTo(Set.copyOf(state.pairs().keySet()));
  }
}
