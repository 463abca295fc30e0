package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import dev.abfleet.controller.schedule.LeaseHolder;
import org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.SnapshotTestKit;
import org.junit.jupiter.api.Test;

/** Snapshots of an experiment: they serialize with CBOR and shorten recovery without changing it. */
class ExperimentSnapshotTest extends EntityTestKit {
  static final String PERSISTENCE_ID = "experiment|e1";

  /** Submits and runs {@code pairs} blocks (one per epoch) to completion on host h1. */
  void runPairs(int pairs) {
    runPairs(pairs, pairs);
  }

  /** Submits {@code wanted} pairs and runs {@code blocks} blocks (one per epoch) on host h1. */
  void runPairs(int wanted, int blocks) {
    entity.<StatusReply<ExperimentEntity.Accepted>>runCommand(
        r -> new ExperimentEntity.Submit(Specs.ab(wanted, 7), r));
    for (int epoch = 1; epoch <= blocks; epoch++) {
      long e = epoch;
      var reply = entity.<LeaseHolder.PlanReply>runCommand(
          r -> new ExperimentEntity.PlanOnLease(new LeaseHolder.PlanBlock("h1", e, HOST, r))).reply();
      Block block = ((LeaseHolder.BlockPlanned) reply).block();
      for (RunPlan run : block.runs()) {
        double stat = run.arm().equals("cand") ? 700 + epoch : 1000 + epoch;
        entity.<RecordResult>runCommand(r -> new ExperimentEntity.RecordRun(
            Specs.ok(run.runId(), "h1", e, stat), block.blockId(), r));
      }
    }
  }

  EventSourcedBehaviorTestKit<ExperimentEntity.Command, ExperimentEvent, ExperimentState> snapshotting(int every) {
    return EventSourcedBehaviorTestKit.create(kit.system(),
        ExperimentEntity.create("e1", scheduler.ref(), every));
  }

  @Test
  void stateWithPairsAndABlockInFlightSurvivesACborRoundTripUnchanged() {
    runPairs(6, 3);
    var reply = entity.<LeaseHolder.PlanReply>runCommand(
        r -> new ExperimentEntity.PlanOnLease(new LeaseHolder.PlanBlock("h1", 9, HOST, r))).reply();
    Block block = ((LeaseHolder.BlockPlanned) reply).block();
    RunPlan first = block.runs().get(0);
    entity.<RecordResult>runCommand(r -> new ExperimentEntity.RecordRun(
        Specs.ok(first.runId(), "h1", 9, 1000), block.blockId(), r));
    ExperimentState state = entity.getState();

    Object back = new SerializationTestKit(kit.system()).verifySerialization(state, false);

    assertThat(back).usingRecursiveComparison().isEqualTo(state);
    assertThat(state.pairs()).hasSize(3);
    assertThat(state.inFlight()).hasSize(1);
  }

  @Test
  void recoveryFromASnapshotAndLaterEventsEqualsRecoveryFromEventsAlone() {
    entity = snapshotting(4);
    runPairs(5);
    ExperimentState before = entity.getState();
    SnapshotTestKit snapshots = SnapshotTestKit.create(kit.system());
    assertThat(snapshots.persistedInStorage(PERSISTENCE_ID)).as("snapshots taken").isNotEmpty();

    ExperimentState fromSnapshot = entity.restart().state();
    snapshots.clearByPersistenceId(PERSISTENCE_ID);
    ExperimentState fromEvents = entity.restart().state();

    assertThat(fromSnapshot).usingRecursiveComparison().isEqualTo(before);
    assertThat(fromEvents).usingRecursiveComparison().isEqualTo(before);
    assertThat(before.status()).isEqualTo(ExperimentState.Status.COMPLETED);
  }

  @Test
  void noSnapshotIsTakenWhenSnapshotsAreOff() {
    runPairs(5);

    assertThat(SnapshotTestKit.create(kit.system()).persistedInStorage(PERSISTENCE_ID)).isEmpty();
  }
}
