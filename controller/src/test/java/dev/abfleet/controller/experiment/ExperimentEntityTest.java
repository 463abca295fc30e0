package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import dev.abfleet.controller.schedule.LeaseHolder;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Verdict;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.Test;

class ExperimentEntityTest extends EntityTestKit {

  StatusReply<ExperimentEntity.Accepted> submit(ExperimentSpec spec) {
    return entity.<StatusReply<ExperimentEntity.Accepted>>runCommand(
        r -> new ExperimentEntity.Submit(spec, r)).reply();
  }

  Block plan(String host, long epoch) {
    var reply = entity.<LeaseHolder.PlanReply>runCommand(
        r -> new ExperimentEntity.PlanOnLease(new LeaseHolder.PlanBlock(host, epoch, HOST, r))).reply();
    assertThat(reply).isInstanceOf(LeaseHolder.BlockPlanned.class);
    return ((LeaseHolder.BlockPlanned) reply).block();
  }

  RecordResult record(Block block, RunOutcome outcome) {
    return entity.<RecordResult>runCommand(
        r -> new ExperimentEntity.RecordRun(outcome, block.blockId(), r)).reply();
  }

  /** Records both boots of the block; the candidate at {@code factor} x the baseline. */
  void runBlock(Block block, double factor) {
    for (RunPlan run : block.runs()) {
      double stat = 1000 * (run.arm().equals("cand") ? factor : 1.0) * (1 + 0.002 * block.pairIndex());
      assertThat(record(block, Specs.ok(run.runId(), block.hostId(), block.leaseEpoch(), stat)))
          .isEqualTo(RecordResult.RECORDED);
    }
  }

  ExperimentView view() {
    return entity.<ExperimentView>runCommand(ExperimentEntity.Get::new).reply();
  }

  @Test
  void acceptsSpecRecordsSeedAndAsksForHosts() {
    var reply = submit(Specs.ab(4, 99));

    assertThat(reply.isSuccess()).isTrue();
    assertThat(reply.getValue().seed()).isEqualTo(99);
    assertThat(scheduler.expectMessageClass(Scheduler.RequestHosts.class).experimentId()).isEqualTo("e1");
    assertThat(submit(Specs.ab(4, 99)).isSuccess()).isTrue();
  }

  @Test
  void plansThroughTheRefItGaveTheSchedulerAndAbandonsOnLeaseLost() {
    submit(Specs.ab(4, 99));
    var holder = scheduler.expectMessageClass(Scheduler.RequestHosts.class).experiment();
    TestProbe<LeaseHolder.PlanReply> replies = kit.createTestProbe();

    holder.tell(new LeaseHolder.PlanBlock("h1", 3, HOST, replies.ref()));
    var planned = replies.expectMessageClass(LeaseHolder.BlockPlanned.class);
    holder.tell(new LeaseHolder.LeaseLost("h1", 3, "host went offline"));

    assertThat(planned.block().hostId()).isEqualTo("h1");
    assertThat(scheduler.expectMessageClass(Scheduler.RequestHosts.class).experimentId()).isEqualTo("e1");
    assertThat(view().retriedBlocks()).isEqualTo(1);
  }

  @Test
  void rejectsSpecWithoutCandidateNamingTheField() {
    ExperimentSpec spec = Specs.ab(4, 1);
    ExperimentSpec onlyBase = new ExperimentSpec("x", List.of(spec.arms().get(0)), spec.benchmark(),
        spec.selector(), spec.policy(), spec.priority());

    var reply = submit(onlyBase);

    assertThat(reply.isError()).isTrue();
    assertThat(reply.getError().getMessage()).contains("arms:", "candidate");
    assertThat(view().known()).isFalse();
  }

  @Test
  void drawsAndRecordsASeedWhenNoneIsGiven() {
    long seed = submit(Specs.ab(4, 0)).getValue().seed();

    assertThat(seed).isNotZero();
    assertThat(view().seed()).isEqualTo(seed);
  }

  @Test
  void plansBothBootsOfAPairInTheSeededOrder() {
    submit(Specs.ab(4, 5));

    Block block = plan("h1", 1);

    assertThat(block.pairIndex()).isZero();
    assertThat(block.runs()).extracting(RunPlan::arm)
        .containsExactlyElementsOf(PairOrder.plan(List.of("base", "cand"), 4, 5).get(0));
    assertThat(plan("h2", 1).pairIndex()).isEqualTo(1);
  }

  @Test
  void recordsEachRunOnce() {
    submit(Specs.ab(4, 5));
    Block block = plan("h1", 1);
    RunOutcome first = Specs.ok(block.runs().get(0).runId(), "h1", 1, 1000);

    assertThat(record(block, first)).isEqualTo(RecordResult.RECORDED);
    var again = entity.<RecordResult>runCommand(
        r -> new ExperimentEntity.RecordRun(first, block.blockId(), r));

    assertThat(again.reply()).isEqualTo(RecordResult.DUPLICATE);
    assertThat(again.hasNoEvents()).isTrue();
    assertThat(view().boots()).hasSize(1);
  }

  @Test
  void rejectsStaleLeaseEpoch() {
    submit(Specs.ab(4, 5));
    Block block = plan("h1", 2);

    var result = record(block, Specs.ok(block.runs().get(0).runId(), "h1", 1, 1000));

    assertThat(result).isEqualTo(RecordResult.REJECTED_STALE);
    assertThat(view().rejectedStale()).isEqualTo(1);
    assertThat(view().boots()).isEmpty();
  }

  @Test
  void infraFailureRerunsThePairWithoutHalfCountingIt() {
    submit(Specs.ab(4, 5));
    Block block = plan("h1", 1);
    record(block, Specs.ok(block.runs().get(0).runId(), "h1", 1, 1000));

    var result = record(block, Specs.failed(block.runs().get(1).runId(), "h1", 1, RunOutcome.Status.INFRA));

    assertThat(result).isEqualTo(RecordResult.ABANDONED);
    assertThat(view().boots()).isEmpty();
    assertThat(view().retriedBlocks()).isEqualTo(1);
    Block retry = plan("h2", 1);
    assertThat(retry.pairIndex()).isZero();
    assertThat(retry.blockId()).isNotEqualTo(block.blockId());
    scheduler.expectMessageClass(Scheduler.RequestHosts.class);
    assertThat(scheduler.expectMessageClass(Scheduler.RequestHosts.class).experimentId()).isEqualTo("e1");
  }

  @Test
  void failsAfterThreeAbandonedBlocksOfOnePair() {
    // One pair on the only host: the failing pair has nowhere else to go.
    submit(Specs.ab(1, 5));
    for (int attempt = 0; attempt < Decisions.MAX_ABANDONED_PER_PAIR; attempt++) {
      Block block = plan("h1", attempt + 1);
      record(block, Specs.failed(block.runs().get(0).runId(), "h1", attempt + 1, RunOutcome.Status.INFRA));
    }

    assertThat(view().state()).isEqualTo("failed");
    assertThat(view().message()).contains("pair 0", "abandoned 3 times");
  }

  @Test
  void hostLostMoreThanThreeTimesDoesNotFailThePair() {
    // A controller restart under load: the pair's block loses its lease again and again because
    // workers reconnect late; the kernels are not at fault and the pair still runs.
    submit(Specs.ab(1, 5));
    for (int attempt = 0; attempt < Decisions.MAX_ABANDONED_PER_PAIR + 2; attempt++) {
      plan("h1", attempt + 1);
      entity.runCommand(new ExperimentEntity.LoseLease(
          new LeaseHolder.LeaseLost("h1", attempt + 1, "host went offline")));
    }
    assertThat(view().state()).isEqualTo("running");

    Block block = plan("h1", 9);
    runBlock(block, 1.0);

    assertThat(view().state()).isEqualTo("completed");
  }

  @Test
  void failsOnceAPairLostItsHostTheLostLimitTimes() {
    submit(Specs.ab(1, 5));
    for (int attempt = 0; attempt < Decisions.MAX_LOST_PER_PAIR; attempt++) {
      plan("h1", attempt + 1);
      entity.runCommand(new ExperimentEntity.LoseLease(
          new LeaseHolder.LeaseLost("h1", attempt + 1, "host went offline")));
    }

    assertThat(view().state()).isEqualTo("failed");
    assertThat(view().message()).contains("pair 0 lost its host " + Decisions.MAX_LOST_PER_PAIR
        + " times", "host went offline");
  }

  @Test
  void hostLossesAndKernelFailuresAreCountedApart() {
    submit(Specs.ab(1, 5));
    long epoch = 1;
    for (int lost = 0; lost < 5; lost++, epoch++) {
      plan("h1", epoch);
      entity.runCommand(new ExperimentEntity.LoseLease(new LeaseHolder.LeaseLost("h1", epoch, "host reconnected")));
    }
    for (int attempt = 0; attempt < Decisions.MAX_ABANDONED_PER_PAIR; attempt++, epoch++) {
      Block block = plan("h1", epoch);
      record(block, Specs.failed(block.runs().get(0).runId(), "h1", epoch, RunOutcome.Status.INFRA));
    }

    assertThat(view().state()).isEqualTo("failed");
    assertThat(view().message()).contains("pair 0 was abandoned 3 times");
  }

  @Test
  void bootFailureCompletesThePairWithTheBootMarkedFailed() {
    submit(Specs.ab(1, 5));
    Block block = plan("h1", 1);
    record(block, Specs.failed(block.runs().get(0).runId(), "h1", 1, RunOutcome.Status.BOOT_FAILED));
    record(block, Specs.ok(block.runs().get(1).runId(), "h1", 1, 1000));

    assertThat(view().state()).isEqualTo("completed");
    assertThat(view().boots()).extracting(RunOutcome::status)
        .containsExactly(RunOutcome.Status.BOOT_FAILED, RunOutcome.Status.OK);
  }

  @Test
  void leaseLostAbandonsTheBlockOnThatHost() {
    submit(Specs.ab(4, 5));
    Block block = plan("h1", 3);

    entity.runCommand(new ExperimentEntity.LoseLease(new LeaseHolder.LeaseLost("h1", 3, "host went offline")));

    assertThat(view().retriedBlocks()).isEqualTo(1);
    assertThat(record(block, Specs.ok(block.runs().get(0).runId(), "h1", 3, 1000)))
        .isEqualTo(RecordResult.REJECTED_STALE);
  }

  @Test
  void completesAtTheWantedPairsAndFindsTheRegression() {
    submit(Specs.ab(6, 11));
    for (int i = 0; i < 6; i++) {
      runBlock(plan(i % 2 == 0 ? "h1" : "h2", i + 1), 0.7);
    }

    ExperimentView done = view();

    assertThat(done.state()).isEqualTo("completed");
    assertThat(done.pairsDone()).isEqualTo(6);
    assertThat(done.boots()).hasSize(12);
    Comparison stat = done.assessment().rows().get(0).comparison();
    assertThat(stat.metric()).isEqualTo("metadata_stat");
    assertThat(stat.verdict()).as("%s", stat).isEqualTo(Verdict.REGRESSED);
    assertThat(stat.change()).isCloseTo(-0.3, org.assertj.core.data.Offset.offset(0.01));
    // One request at submit, a refresh of the open-pairs cap after each of pairs 1-5, then done.
    var messages = scheduler.receiveSeveralMessages(7);
    assertThat(messages.subList(1, 6)).allSatisfy(m -> assertThat(m).isInstanceOf(Scheduler.RequestHosts.class));
    assertThat(((Scheduler.RequestHosts) messages.get(5)).openPairs()).isEqualTo(1);
    assertThat(messages.get(6)).isEqualTo(new Scheduler.WithdrawDemand("e1"));
  }

  @Test
  void aRunningExperimentsViewHasTheVerdictsOfItsCompletedPairsSoFar() {
    submit(Specs.ab(20, 11));
    for (int i = 0; i < 4; i++) {
      runBlock(plan(i % 2 == 0 ? "h1" : "h2", i + 1), 0.7);
    }

    ExperimentView running = view();

    assertThat(running.state()).isEqualTo("running");
    assertThat(running.assessment().rows()).isNotEmpty();
    Comparison stat = running.assessment().rows().get(0).comparison();
    assertThat(stat.nPairs()).isEqualTo(4);
    assertThat(stat.change()).isCloseTo(-0.3, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void recoveryAbandonsBlocksThatWereInFlight() {
    submit(Specs.ab(4, 5));
    Block block = plan("h1", 1);
    scheduler.expectMessageClass(Scheduler.RequestHosts.class);

    entity.restart();

    assertThat(scheduler.expectMessageClass(Scheduler.RequestHosts.class).experimentId()).isEqualTo("e1");
    assertThat(view().retriedBlocks()).isEqualTo(1);
    assertThat(record(block, Specs.ok(block.runs().get(0).runId(), "h1", 1, 1000)))
        .isEqualTo(RecordResult.REJECTED_STALE);
    assertThat(plan("h1", 2).pairIndex()).isZero();
  }

  @Test
  void preemptedBlockRerunsItsPairWithoutChargingIt() {
    submit(Specs.ab(2, 5));
    for (int attempt = 0; attempt < Decisions.MAX_ABANDONED_PER_PAIR + 1; attempt++) {
      Block block = plan("h1", attempt + 1);
      RunPlan first = block.runs().get(0);
      assertThat(record(block, Specs.ok(first.runId(), "h1", block.leaseEpoch(), 1000)))
          .isEqualTo(RecordResult.RECORDED);

      entity.runCommand(new ExperimentEntity.BlockFinished(block.blockId(), block.leaseEpoch(), true));

      // Written at the entity's next flush, before the Get is answered.
      assertThat(view().retriedBlocks()).isEqualTo(attempt + 1);
      assertThat(entity.getState().abandoned()).as("a preemption is not charged to the pair").isEmpty();
    }
    ExperimentView v = view();
    assertThat(v.state()).isEqualTo("running");
    assertThat(v.boots()).as("the half-done pair is not counted").isEmpty();
    assertThat(v.retriedBlocks()).isEqualTo(Decisions.MAX_ABANDONED_PER_PAIR + 1);
  }

  @Test
  void pairThatFailedOnAHostWaitsForAnotherMatchingHost() {
    submit(Specs.ab(1, 5));
    Block first = plan("h1", 1);
    RunPlan run = first.runs().get(0);
    assertThat(record(first, Specs.failed(run.runId(), "h1", 1, RunOutcome.Status.INFRA)))
        .isEqualTo(RecordResult.ABANDONED);

    var declined = entity.<LeaseHolder.PlanReply>runCommand(
        r -> new ExperimentEntity.PlanOnLease(new LeaseHolder.PlanBlock("h1", 2, HOST, true, r))).reply();
    assertThat(declined).isEqualTo(new LeaseHolder.NoBlockNeeded("e1", true));

    var onlyHost = entity.<LeaseHolder.PlanReply>runCommand(
        r -> new ExperimentEntity.PlanOnLease(new LeaseHolder.PlanBlock("h1", 3, HOST, false, r))).reply();
    assertThat(onlyHost).as("no other host matches: run it here after all")
        .isInstanceOf(LeaseHolder.BlockPlanned.class);
  }

  @Test
  void pairThatFailedOnAHostRunsOnTheNextOne() {
    submit(Specs.ab(1, 5));
    Block first = plan("h1", 1);
    record(first, Specs.failed(first.runs().get(0).runId(), "h1", 1, RunOutcome.Status.INFRA));

    var reply = entity.<LeaseHolder.PlanReply>runCommand(
        r -> new ExperimentEntity.PlanOnLease(new LeaseHolder.PlanBlock("h2", 1, HOST, true, r))).reply();

    assertThat(reply).isInstanceOfSatisfying(LeaseHolder.BlockPlanned.class,
        p -> assertThat(p.block().pairIndex()).isZero());
  }
}
