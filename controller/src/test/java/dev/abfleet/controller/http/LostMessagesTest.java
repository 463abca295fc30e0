package dev.abfleet.controller.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.http.ControllerMetrics.DroppedKind;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.Dropped;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LostMessagesTest {
  /** A message of the controller's own (Pekko's own are not counted). */
  record BlockDone(String blockId) {}

  private final ActorTestKit kit = ActorTestKit.create();
  private final ControllerMetrics metrics = new ControllerMetrics();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void countsACommandSentToAStoppedActorAsADeadLetter() {
    listen();
    ActorRef<BlockDone> gone = kit.spawn(Behaviors.<BlockDone>stopped());
    TestProbe<Object> watcher = kit.createTestProbe();
    watcher.expectTerminated(gone, Duration.ofSeconds(5));

    gone.tell(new BlockDone("b1"));

    watcher.awaitAssert(() -> {
      assertThat(metrics.droppedCommands(DroppedKind.DEAD_LETTER)).isEqualTo(1);
      return null;
    });
    assertThat(metrics.render()).contains("abfleet_dropped_commands_total{kind=\"dead_letter\"} 1.0");
    assertThat(metrics.droppedCommands(DroppedKind.UNHANDLED)).isZero();
  }

  @Test
  void countsAnAnswerToATimedOutAskAsLateNotAsALostCommand() throws Exception {
    listen();
    ActorRef<AskFor> slow = kit.spawn(Behaviors.receiveMessage(m -> {
      Thread.sleep(300);
      m.replyTo().tell(new BlockDone("late"));
      return Behaviors.same();
    }));

    var answer = org.apache.pekko.actor.typed.javadsl.AskPattern.<AskFor, BlockDone>ask(slow, AskFor::new,
        Duration.ofMillis(50), kit.scheduler()).toCompletableFuture();

    assertThat(answer).failsWithin(Duration.ofSeconds(5));
    kit.createTestProbe().awaitAssert(() -> {
      assertThat(metrics.lateReplies()).isEqualTo(1);
      return null;
    });
    assertThat(metrics.droppedCommands(DroppedKind.DEAD_LETTER)).isZero();
    assertThat(metrics.render()).contains("abfleet_late_replies_total 1.0");
  }

  record AskFor(ActorRef<BlockDone> replyTo) {}

  @Test
  void countsACommandNoHandlerTakesAsUnhandled() {
    listen();
    ActorRef<BlockDone> picky = kit.spawn(Behaviors.receiveMessage(m -> Behaviors.unhandled()));

    picky.tell(new BlockDone("b1"));

    kit.createTestProbe().awaitAssert(() -> {
      assertThat(metrics.droppedCommands(DroppedKind.UNHANDLED)).isEqualTo(1);
      return null;
    });
  }

  @Test
  void doesNotCountPekkosOwnMessagesLostAsANodeStops() {
    listen();
    ActorRef<Object> gone = kit.spawn(Behaviors.stopped());
    TestProbe<Object> watcher = kit.createTestProbe();
    watcher.expectTerminated(gone, Duration.ofSeconds(5));

    gone.tell("gossip");
    gone.tell(new BlockDone("b2"));

    watcher.awaitAssert(() -> {
      assertThat(metrics.droppedCommands(DroppedKind.DEAD_LETTER)).isEqualTo(1);
      return null;
    });
    // The Pekko-like message went first and is not counted, now nor later.
    watcher.expectNoMessage(Duration.ofMillis(200));
    assertThat(metrics.droppedCommands(DroppedKind.DEAD_LETTER)).isEqualTo(1);
  }

  @Test
  void namesTheCommandInsideAStashOrAdapterEnvelope() {
    Object stashed = new org.apache.pekko.persistence.typed.internal.InternalProtocol.IncomingCommand<>(
        new BlockDone("b3"));

    assertThat(LostMessages.unwrapped(stashed)).isEqualTo(new BlockDone("b3"));
    assertThat(LostMessages.unwrapped("plain")).isEqualTo("plain");
  }

  @Test
  void reportsZeroOfEveryKindBeforeAnythingIsLost() {
    assertThat(metrics.render())
        .contains("abfleet_dropped_commands_total{kind=\"dropped\"} 0.0")
        .contains("abfleet_dropped_commands_total{kind=\"dead_letter\"} 0.0")
        .contains("abfleet_dropped_commands_total{kind=\"unhandled\"} 0.0");
  }

  /**
   * Spawns the listener and waits until its subscriptions are in force: a {@code Dropped}
   * published on the event stream (until one is counted) proves it. Tests then count the other kinds.
   */
  private void listen() {
    kit.spawn(LostMessages.create(metrics));
    TestProbe<Object> probe = kit.createTestProbe();
    var recipient = org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(probe.ref());
    probe.awaitAssert(() -> {
      kit.system().eventStream().tell(new EventStream.Publish<>(
          Dropped.apply(new BlockDone("probe"), "listener ready?", recipient, recipient)));
      assertThat(metrics.droppedCommands(DroppedKind.DROPPED)).isPositive();
      return null;
    });
  }
}
