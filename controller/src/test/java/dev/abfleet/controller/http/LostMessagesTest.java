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
  private final ActorTestKit kit = ActorTestKit.create();
  private final ControllerMetrics metrics = new ControllerMetrics();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void countsACommandSentToAStoppedActorAsADeadLetter() {
    listen();
    ActorRef<String> gone = kit.spawn(Behaviors.<String>stopped());
    TestProbe<Object> watcher = kit.createTestProbe();
    watcher.expectTerminated(gone, Duration.ofSeconds(5));

    gone.tell("BlockDone");

    watcher.awaitAssert(() -> {
      assertThat(metrics.droppedCommands(DroppedKind.DEAD_LETTER)).isEqualTo(1);
      return null;
    });
    assertThat(metrics.render()).contains("abfleet_dropped_commands_total{kind=\"dead_letter\"} 1.0");
    assertThat(metrics.droppedCommands(DroppedKind.UNHANDLED)).isZero();
  }

  @Test
  void countsACommandNoHandlerTakesAsUnhandled() {
    listen();
    ActorRef<String> picky = kit.spawn(Behaviors.receiveMessage(m -> Behaviors.unhandled()));

    picky.tell("RunHandled");

    kit.createTestProbe().awaitAssert(() -> {
      assertThat(metrics.droppedCommands(DroppedKind.UNHANDLED)).isEqualTo(1);
      return null;
    });
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
    kit.createTestProbe().awaitAssert(() -> {
      kit.system().eventStream().tell(new EventStream.Publish<>(
          Dropped.apply("probe", "listener ready?", org.apache.pekko.actor.ActorRef.noSender(), org.apache.pekko.actor.ActorRef.noSender())));
      assertThat(metrics.droppedCommands(DroppedKind.DROPPED)).isPositive();
      return null;
    });
  }
}
