package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.TestActorKits;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.RunPlan;
import dev.abfleet.controller.schedule.AssignBlock;
import dev.abfleet.controller.schedule.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A scheduler singleton that dies while an experiment's pairs complete, and its successor
 * recovered from the same journal: what the experiment told the dying scheduler is lost (as
 * with a node killed by SIGKILL), and the experiment still completes on the new one. A probe
 * plays the one host's worker.
 */
class SchedulerFailoverRecoveryTest {
  static final Duration STALL_AFTER = Duration.ofMillis(600);
  static final HostCapabilities HOST = new HostCapabilities("h1", "x86_64", 2, 4096, Map.of(),
      Map.of("qemu", List.of("tcg")), "", "", "");

  final ActorTestKit kit = TestActorKits.inMemoryJournal();
  // Where the experiment's scheduler messages go now; null while no scheduler runs (dropped).
  final AtomicReference<ActorRef<Scheduler.Command>> current = new AtomicReference<>();
  final AtomicInteger stalls = new AtomicInteger();
  final TestProbe<SessionMessage> worker = kit.createTestProbe();
  int incarnation;

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  /** Stands in for the cluster singleton proxy: forwards to the scheduler running now, if any. */
  static Behavior<Scheduler.Command> proxy(AtomicReference<ActorRef<Scheduler.Command>> current) {
    return Behaviors.receive(Scheduler.Command.class)
        .onAnyMessage(msg -> {
          ActorRef<Scheduler.Command> to = current.get();
          if (to != null) {
            to.tell(msg);
          }
          return Behaviors.same();
        })
        .build();
  }

  ActorRef<ExperimentEntity.Command> start(int pairs) {
    startScheduler();
    ActorRef<Scheduler.Command> proxy = kit.spawn(proxy(current));
    ActorRef<ExperimentEntity.Command> experiment = kit.spawn(ExperimentEntity.create("e1", proxy, 0,
        new ExperimentEntity.Watchdog(STALL_AFTER, stalls::incrementAndGet)));
    TestProbe<Object> accepted = kit.createTestProbe();
    experiment.tell(new ExperimentEntity.Submit(Specs.ab(pairs, 5), accepted.ref().narrow()));
    accepted.expectMessageClass(org.apache.pekko.pattern.StatusReply.class);
    return experiment;
  }

  /** A scheduler incarnation recovered from the journal; the worker (re)connects to it. */
  void startScheduler() {
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create(), "scheduler-" + incarnation++);
    current.set(scheduler);
    scheduler.tell(new Scheduler.RegisterHost(HOST, worker.ref()));
  }

  /** The singleton's node dies: the scheduler stops and messages meanwhile are lost. */
  void killScheduler() {
    ActorRef<Scheduler.Command> dying = current.getAndSet(null);
    kit.stop(dying);
  }

  Block nextBlock() {
    return worker.fishForMessage(Duration.ofSeconds(10), m -> m instanceof AssignBlock
        ? org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes.complete()
        : org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes.continueAndIgnore())
        .stream().map(m -> ((AssignBlock) m).block()).reduce((a, b) -> b).orElseThrow();
  }

  /** The worker reports every boot of the block; {@code done} tells the scheduler it is over. */
  void run(ActorRef<ExperimentEntity.Command> experiment, Block block, boolean done) {
    for (RunPlan run : block.runs()) {
      experiment.tell(new ExperimentEntity.RecordRun(
          Specs.ok(run.runId(), "h1", block.leaseEpoch(), 1000), block.blockId(), null));
    }
    if (done) {
      ActorRef<Scheduler.Command> scheduler = current.get();
      scheduler.tell(new Scheduler.BlockDone("h1", block.blockId(), block.leaseEpoch()));
    }
  }

  void awaitPairs(ActorRef<ExperimentEntity.Command> experiment, int pairs) {
    TestProbe<ExperimentView> views = kit.createTestProbe();
    views.awaitAssert(Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
      experiment.tell(new ExperimentEntity.Get(views.ref()));
      assertThat(views.receiveMessage().pairsDone()).isEqualTo(pairs);
      return null;
    });
  }

  ExperimentView awaitEnd(ActorRef<ExperimentEntity.Command> experiment) {
    TestProbe<ExperimentView> views = kit.createTestProbe();
    return views.awaitAssert(Duration.ofSeconds(10), Duration.ofMillis(100), () -> {
      experiment.tell(new ExperimentEntity.Get(views.ref()));
      ExperimentView view = views.receiveMessage();
      assertThat(view.state()).isEqualTo("completed");
      return view;
    });
  }

  @Test
  void completesWhenThePairsRequestWentToTheDeadScheduler() {
    ActorRef<ExperimentEntity.Command> experiment = start(3);
    Block first = nextBlock();

    // The pair completes while the scheduler's node dies: the experiment's request for the next
    // pair and the worker's BlockDone went to it and are lost.
    killScheduler();
    run(experiment, first, false);
    awaitPairs(experiment, 1);
    startScheduler();

    run(experiment, nextBlock(), true);
    run(experiment, nextBlock(), true);

    ExperimentView view = awaitEnd(experiment);
    assertThat(view.pairsDone()).isEqualTo(3);
    assertThat(stalls.get()).isPositive();
  }

  @Test
  void completesWhenTheBlockInFlightWasLostWithTheScheduler() {
    ActorRef<ExperimentEntity.Command> experiment = start(1);
    Block lost = nextBlock();

    // The worker drops the block when its controller dies and reconnects to the new scheduler,
    // which releases the recovered lease for an experiment it has not heard from yet.
    killScheduler();
    startScheduler();

    Block again = nextBlock();
    assertThat(again.pairIndex()).isEqualTo(lost.pairIndex());
    assertThat(again.leaseEpoch()).isGreaterThan(lost.leaseEpoch());
    run(experiment, again, true);

    ExperimentView view = awaitEnd(experiment);
    assertThat(view.pairsDone()).isEqualTo(1);
    assertThat(view.retriedBlocks()).isEqualTo(1);
  }
}
