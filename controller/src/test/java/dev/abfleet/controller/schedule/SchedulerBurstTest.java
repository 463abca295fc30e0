package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.abfleet.controller.JournalHold;
import dev.abfleet.controller.http.ControllerMetrics;
import dev.abfleet.controller.http.LostMessages;
import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.testkit.Eventually;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.persistence.testkit.PersistenceTestKitPlugin;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A burst of scheduler commands larger than Pekko's default stash (4,096) arriving while the
 * journal holds a write: every command is stashed, and with the controller's stash capacity
 * every one takes effect. The same burst under the old capacity shows the test can fail, and
 * that a drop is counted.
 */
class SchedulerBurstTest {
  /** Pekko's default stash capacity, the one that dropped commands at 2,000 hosts. */
  static final int OLD_STASH_CAPACITY = 4096;
  /** Report refusals and run reports in the burst, one of each per round. */
  static final int ROUNDS = 5000;

  private ActorTestKit kit;

  @AfterEach
  void stop() {
    if (kit != null) {
      kit.shutdownTestKit();
    }
  }

  @Test
  void aBurstLargerThanTheOldStashIsNotDropped() throws Exception {
    int capacity = ConfigFactory.parseResources("application.conf").getInt("pekko.persistence.typed.stash-capacity");
    assertThat(capacity).isGreaterThan(2 * ROUNDS + 10);
    ControllerMetrics metrics = start(capacity);

    HostView host = burstWhileTheJournalHoldsAWrite();

    assertThat(metrics.droppedCommands()).isZero();
    assertThat(host.rejectedReports()).isEqualTo(ROUNDS);
    // The last round's report was INFRA after a good one: a streak of one.
    assertThat(host.infraFailures()).isEqualTo(1);
  }

  @Test
  void theOldStashDropsTheSameBurstAndTheDropsAreCounted() throws Exception {
    ControllerMetrics metrics = start(OLD_STASH_CAPACITY);

    HostView host = burstWhileTheJournalHoldsAWrite();

    long dropped = metrics.droppedCommands(ControllerMetrics.DroppedKind.DROPPED);
    assertThat(dropped).isGreaterThan(0);
    assertThat(metrics.render()).contains("abfleet_dropped_commands_total{kind=\"dropped\"} " + dropped + ".0");
    assertThat(host.rejectedReports()).isLessThan(ROUNDS);
  }

  private ControllerMetrics start(int stashCapacity) {
    Config config = ConfigFactory.parseString("pekko.persistence.typed.stash-capacity = " + stashCapacity
            + "\npekko.actor.serialization-bindings { \"dev.abfleet.controller.CborSerializable\" = jackson-cbor }")
        .withFallback(PersistenceTestKitPlugin.config());
    kit = ActorTestKit.create(config);
    ControllerMetrics metrics = new ControllerMetrics();
    kit.spawn(LostMessages.create(metrics), "lost-messages");
    return metrics;
  }

  private HostView burstWhileTheJournalHoldsAWrite() throws Exception {
    PersistenceTestKit journal = PersistenceTestKit.create(kit.system());
    ActorRef<Scheduler.Command> scheduler = kit.spawn(Scheduler.create());
    TestProbe<SessionMessage> session = kit.createTestProbe();
    scheduler.tell(new Scheduler.RegisterHost(SchedulingTest.qemuHost("h1"), session.ref()));
    assertThat(hosts(scheduler)).hasSize(1);
    JournalHold hold = JournalHold.on(journal);

    // Persists an INFRA failure at its flush: the write waits, and the scheduler stashes what follows.
    scheduler.tell(new Scheduler.RunHandled("h1", true, "boot timed out", false));
    assertThat(hold.awaitWriting()).as("the scheduler writes the failure").isTrue();
    for (int i = 0; i < ROUNDS; i++) {
      scheduler.tell(new Scheduler.ReportRejected("h1", "stale_epoch"));
      scheduler.tell(new Scheduler.RunHandled("h1", i % 2 == 1, i % 2 == 1 ? "boot timed out" : "", false));
    }
    // The whole burst moved from the mailbox into the stash (or past it, dropped): the mailbox is
    // empty. Cell.hasMessages is Pekko's internal API, the one view of an actor's mailbox.
    org.apache.pekko.actor.Cell cell = ((org.apache.pekko.actor.ActorRefWithCell) Adapter.toClassic(scheduler)).underlying();
    Eventually.await("the scheduler's mailbox worked off into its stash", Duration.ofSeconds(60),
        () -> !cell.hasMessages());
    hold.release();

    // Asked until answered: under the old capacity a question sent while the stash is full is
    // dropped too. The answer comes once the whole stash has been worked off.
    TestProbe<Scheduler.Hosts> probe = kit.createTestProbe();
    for (int attempt = 0; attempt < 30; attempt++) {
      scheduler.tell(new Scheduler.ListHosts(probe.ref()));
      try {
        List<HostView> hosts = probe.receiveMessage(Duration.ofSeconds(2)).hosts();
        assertThat(hosts).hasSize(1);
        return hosts.get(0);
      } catch (AssertionError noAnswerYet) {
        // asked again below
      }
    }
    throw new AssertionError("the scheduler did not answer ListHosts within 60 s of the burst");
  }

  private List<HostView> hosts(ActorRef<Scheduler.Command> scheduler) {
    TestProbe<Scheduler.Hosts> probe = kit.createTestProbe();
    scheduler.tell(new Scheduler.ListHosts(probe.ref()));
    return probe.receiveMessage().hosts();
  }
}
