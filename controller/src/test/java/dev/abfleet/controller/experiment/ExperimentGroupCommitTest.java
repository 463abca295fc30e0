package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.JournalHold;
import dev.abfleet.controller.TestActorKits;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.schedule.LeaseHolder;
import dev.abfleet.controller.schedule.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The entity writes what a burst of commands decided together (group commit): hosts asking for
 * blocks while a write is under way are planned against the state with the waiting events, get
 * distinct pairs, are answered only once their block is written, and cost one more write, not
 * one each.
 */
class ExperimentGroupCommitTest {
  static final int HOSTS = 20;

  private final ActorTestKit kit = TestActorKits.eventSourced();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void blockRequestsArrivingDuringAWriteAreWrittenTogetherAndAnsweredOnceWritten() throws Exception {
    PersistenceTestKit journal = PersistenceTestKit.create(kit.system());
    TestProbe<Scheduler.Command> scheduler = kit.createTestProbe();
    ActorRef<ExperimentEntity.Command> entity = kit.spawn(ExperimentEntity.create("g1", scheduler.ref()));
    TestProbe<StatusReply<ExperimentEntity.Accepted>> accepted = kit.createTestProbe();
    entity.tell(new ExperimentEntity.Submit(Specs.ab(HOSTS, 5), accepted.ref()));
    assertThat(accepted.receiveMessage().isSuccess()).isTrue();

    JournalHold hold = JournalHold.on(journal);

    TestProbe<LeaseHolder.PlanReply> replies = kit.createTestProbe();
    entity.tell(plan("h0", replies));
    assertThat(hold.awaitWriting()).as("the first block is being written").isTrue();
    for (int i = 1; i < HOSTS; i++) {
      entity.tell(plan("h" + i, replies));
    }
    replies.expectNoMessage(Duration.ofMillis(300));
    hold.release();

    List<LeaseHolder.PlanReply> answers = replies.receiveSeveralMessages(HOSTS, Duration.ofSeconds(10));
    assertThat(answers).allMatch(a -> a instanceof LeaseHolder.BlockPlanned);
    assertThat(answers.stream().map(a -> ((LeaseHolder.BlockPlanned) a).block().pairIndex()).distinct())
        .as("no pair planned twice").hasSize(HOSTS);
    assertThat(hold.writes()).as("the first block, then the other %d together", HOSTS - 1).isEqualTo(2);
    assertThat(journal.persistedInStorage("experiment|g1")).hasSize(1 + HOSTS);
  }

  private static ExperimentEntity.Command plan(String host, TestProbe<LeaseHolder.PlanReply> replies) {
    HostCapabilities capabilities = new HostCapabilities(host, "x86_64", 2, 4096, Map.of(),
        Map.of("qemu", List.of("tcg")), "", "", "");
    return new ExperimentEntity.PlanOnLease(new LeaseHolder.PlanBlock(host, 1, capabilities, replies.ref()));
  }
}
