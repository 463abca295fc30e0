package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import dev.abfleet.controller.schedule.LeaseHolder;
import dev.abfleet.stats.Comparison;
import java.util.List;
import java.util.Map;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.Test;

/** Policy warmupBoot: one uncounted baseline boot opens the first block on a freshly leased host. */
class ExperimentWarmupTest extends EntityTestKit {

  static ExperimentSpec withWarmup(int pairs, boolean warmup) {
    ExperimentSpec s = Specs.ab(pairs, 7);
    PolicySpec p = s.policy();
    return new ExperimentSpec(s.name(), s.arms(), s.benchmark(), s.selector(),
        new PolicySpec(p.noiseThreshold(), p.alpha(), p.pairs(), p.seed(), p.bootTimeoutS(),
            p.gatingMetrics(), p.looks(), warmup), s.priority());
  }

  void submit(ExperimentSpec spec) {
    var reply = entity.<StatusReply<ExperimentEntity.Accepted>>runCommand(
        r -> new ExperimentEntity.Submit(spec, r)).reply();
    assertThat(reply.isSuccess()).as(String.valueOf(reply)).isTrue();
  }

  Block plan(String host, long epoch) {
    var reply = entity.<LeaseHolder.PlanReply>runCommand(
        r -> new ExperimentEntity.PlanOnLease(new LeaseHolder.PlanBlock(host, epoch, HOST, r))).reply();
    assertThat(reply).isInstanceOf(LeaseHolder.BlockPlanned.class);
    return ((LeaseHolder.BlockPlanned) reply).block();
  }

  RecordResult record(Block block, RunOutcome outcome) {
    return entity.<RecordResult>runCommand(r -> new ExperimentEntity.RecordRun(outcome, block.blockId(), r)).reply();
  }

  /** Records every boot: warm-ups far off (10 ops/s), measured ones around 1000 ops/s. */
  void runBlock(Block block) {
    for (RunPlan run : block.runs()) {
      double stat = run.warmup() ? 10 : 1000 * (1 + 0.002 * block.pairIndex());
      assertThat(record(block, Specs.ok(run.runId(), block.hostId(), block.leaseEpoch(), stat)))
          .isEqualTo(RecordResult.RECORDED);
    }
  }

  ExperimentView view() {
    return entity.<ExperimentView>runCommand(ExperimentEntity.Get::new).reply();
  }

  @Test
  void firstBlockOnAFreshLeaseStartsWithOneBaselineWarmupBoot() {
    submit(withWarmup(4, true));

    Block first = plan("h1", 1);

    assertThat(first.runs()).hasSize(3);
    assertThat(first.runs().get(0).warmup()).isTrue();
    assertThat(first.runs().get(0).arm()).isEqualTo("base");
    assertThat(first.runs().subList(1, 3)).noneMatch(RunPlan::warmup)
        .extracting(RunPlan::arm).containsExactlyInAnyOrder("base", "cand");
  }

  @Test
  void backToBackBlockOnTheSameHostHasNoWarmupBoot() {
    submit(withWarmup(4, true));
    runBlock(plan("h1", 1));

    Block next = plan("h1", 2);

    assertThat(next.runs()).hasSize(2).noneMatch(RunPlan::warmup);
  }

  @Test
  void hostBackAfterAnotherLeaseGetsAWarmupBootAgain() {
    submit(withWarmup(4, true));
    runBlock(plan("h1", 1));

    Block afterOtherWork = plan("h1", 4); // epochs 2 and 3 went to other experiments

    assertThat(afterOtherWork.runs().get(0).warmup()).isTrue();
  }

  @Test
  void withoutThePolicyNoBlockHasAWarmupBoot() {
    submit(withWarmup(4, false));

    assertThat(plan("h1", 1).runs()).hasSize(2).noneMatch(RunPlan::warmup);
  }

  @Test
  void warmupBootsAreListedButNeverCountAsPairsOrInVerdicts() {
    submit(withWarmup(4, true));
    runBlock(plan("h1", 1));
    runBlock(plan("h2", 1));
    runBlock(plan("h1", 2));
    runBlock(plan("h2", 2));

    ExperimentView v = view();

    assertThat(v.state()).isEqualTo("completed");
    assertThat(v.pairsDone()).isEqualTo(4);
    assertThat(v.boots()).hasSize(10);
    assertThat(v.boots()).filteredOn(RunOutcome::warmup).hasSize(2)
        .allSatisfy(b -> assertThat(b.arm()).isEqualTo("base"))
        .extracting(RunOutcome::hostId).containsExactlyInAnyOrder("h1", "h2");
    Comparison stat = v.assessment().rows().stream().map(r -> r.comparison())
        .filter(c -> c.metric().equals("metadata_stat")).findFirst().orElseThrow();
    assertThat(stat.nPairs()).isEqualTo(4);
    assertThat(stat.baselineCenter()).as("warm-ups at 10 ops/s are not in the baseline").isGreaterThan(999);
  }

  @Test
  void failedWarmupIsRecordedOnceNotRetriedAndTheBlockGoesOn() {
    submit(withWarmup(2, true));
    Block block = plan("h1", 1);
    RunPlan warmup = block.runs().get(0);

    RecordResult result = record(block, Specs.failed(warmup.runId(), "h1", 1, RunOutcome.Status.INFRA));
    for (RunPlan run : block.runs().subList(1, 3)) {
      record(block, Specs.ok(run.runId(), "h1", 1, 1000));
    }

    assertThat(result).isEqualTo(RecordResult.RECORDED);
    ExperimentView v = view();
    assertThat(v.retriedBlocks()).isZero();
    assertThat(v.pairsDone()).isEqualTo(1);
    assertThat(v.boots()).filteredOn(RunOutcome::warmup).singleElement()
        .extracting(RunOutcome::status).isEqualTo(RunOutcome.Status.INFRA);
  }
}
