package dev.abfleet.controller.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.fleet.SessionMessage;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A scheduler that starts (again, or on another node) finds the host sessions already live. */
class SchedulerFailoverTest {
  final ActorTestKit kit = dev.abfleet.controller.TestActorKits.inMemoryJournal();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void asksSessionsItDoesNotKnowToRegisterAgain() {
    TestProbe<SessionMessage> session = kit.createTestProbe();
    TestProbe<Receptionist.Registered> registered = kit.createTestProbe();
    kit.system().receptionist().tell(
        Receptionist.register(SessionMessage.SESSIONS, session.ref(), registered.ref()));
    registered.expectMessageClass(Receptionist.Registered.class);

    kit.spawn(Scheduler.create());

    IntroduceHost ask = session.expectMessageClass(IntroduceHost.class);
    assertThat(ask.why()).startsWith("scheduler started on pekko://");
  }
}
