package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.schedule.IntroduceHost;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A node's sessions are found through one directory entry, not one receptionist entry each. */
class SessionDirectoryTest {
  final ActorTestKit kit = dev.abfleet.controller.TestActorKits.inMemoryJournal();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  /** A session stand-in that forwards what it is told to a probe, and stops on request. */
  private ActorRef<SessionMessage> session(TestProbe<SessionMessage> probe) {
    Behavior<SessionMessage> b = Behaviors.receiveMessage(m -> {
      if (m instanceof HostSession.StreamEnded) {
        return Behaviors.stopped();
      }
      probe.ref().tell(m);
      return Behaviors.same();
    });
    return kit.spawn(b);
  }

  @Test
  void registersOneEntryForAllTheSessionsOfItsNode() {
    ActorRef<SessionMessage> directory = SessionDirectory.of(kit.system());
    for (int i = 0; i < 50; i++) {
      directory.tell(new SessionDirectory.Add(session(kit.createTestProbe())));
    }
    TestProbe<Receptionist.Listing> listing = kit.createTestProbe();

    listing.awaitAssert(Duration.ofSeconds(5), () -> {
      kit.system().receptionist().tell(Receptionist.find(SessionMessage.SESSIONS, listing.ref()));
      assertThat(listing.receiveMessage().getServiceInstances(SessionMessage.SESSIONS)).containsExactly(directory);
      return null;
    });
  }

  @Test
  void passesAnIntroductionOnToEveryLiveSession() {
    ActorRef<SessionMessage> directory = SessionDirectory.of(kit.system());
    TestProbe<SessionMessage> first = kit.createTestProbe();
    TestProbe<SessionMessage> second = kit.createTestProbe();
    TestProbe<SessionMessage> ended = kit.createTestProbe();
    ActorRef<SessionMessage> gone = session(ended);
    directory.tell(new SessionDirectory.Add(session(first)));
    directory.tell(new SessionDirectory.Add(session(second)));
    directory.tell(new SessionDirectory.Add(gone));
    TestProbe<Object> watcher = kit.createTestProbe();
    gone.tell(new HostSession.StreamEnded("the worker closed the stream"));
    watcher.expectTerminated(gone);

    directory.tell(new IntroduceHost("scheduler started on pekko://other"));

    assertThat(first.expectMessageClass(IntroduceHost.class).why()).isEqualTo("scheduler started on pekko://other");
    assertThat(second.expectMessageClass(IntroduceHost.class).why()).isEqualTo("scheduler started on pekko://other");
    ended.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void saysHowLongAgoEachHostSpokeTakingTheNewestOfTwoSessions() {
    ActorRef<SessionMessage> directory = SessionDirectory.of(kit.system());
    directory.tell(new SessionDirectory.Add(session(kit.createTestProbe()), "h1", () -> 2_500_000_000L));
    directory.tell(new SessionDirectory.Add(session(kit.createTestProbe()), "h1", () -> 800_000_000L));
    directory.tell(new SessionDirectory.Add(session(kit.createTestProbe()), "h2", () -> 40_000_000L));
    directory.tell(new SessionDirectory.Add(session(kit.createTestProbe())));
    TestProbe<SessionDirectory.Heard> heard = kit.createTestProbe();

    directory.tell(new SessionDirectory.ListHeard(heard.ref()));

    assertThat(heard.receiveMessage().silentMs()).containsExactlyInAnyOrderEntriesOf(
        java.util.Map.of("h1", 800L, "h2", 40L));
  }

  @Test
  void heartbeatAgesAskEveryNodesDirectory() throws Exception {
    ActorRef<SessionMessage> directory = SessionDirectory.of(kit.system());
    directory.tell(new SessionDirectory.Add(session(kit.createTestProbe()), "h7", () -> 1_200_000_000L));
    TestProbe<Receptionist.Listing> listing = kit.createTestProbe();
    listing.awaitAssert(Duration.ofSeconds(5), () -> {
      kit.system().receptionist().tell(Receptionist.find(SessionMessage.SESSIONS, listing.ref()));
      assertThat(listing.receiveMessage().getServiceInstances(SessionMessage.SESSIONS)).isNotEmpty();
      return null;
    });

    var ages = HeartbeatAges.of(kit.system(), Duration.ofSeconds(3)).toCompletableFuture()
        .get(5, java.util.concurrent.TimeUnit.SECONDS);

    assertThat(ages).containsExactly(java.util.Map.entry("h7", 1200L));
  }
}
