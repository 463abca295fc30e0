package dev.abfleet.controller.http;

import dev.abfleet.controller.http.ControllerMetrics.DroppedKind;
import org.apache.pekko.actor.DeadLetter;
import org.apache.pekko.actor.Dropped;
import org.apache.pekko.actor.UnhandledMessage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Makes a lost actor message loud: listens on the node's event stream for what Pekko publishes
 * when it gives a message up ({@code Dropped} by a full stash, {@code DeadLetter} for a stopped
 * recipient, {@code UnhandledMessage}), logs each with its message class and counts it in
 * {@code abfleet_dropped_commands_total{kind}}. Pekko's suppressed dead letters (its own
 * system messages, by design) are not counted.
 */
public final class LostMessages {
  private LostMessages() {}

  /** The listener; spawn one per node (it subscribes itself). */
  public static Behavior<Object> create(ControllerMetrics metrics) {
    return Behaviors.setup(context -> {
      ActorRef<Object> self = context.getSelf();
      context.getSystem().eventStream().tell(new EventStream.Subscribe<>(Dropped.class, self.narrow()));
      context.getSystem().eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, self.narrow()));
      context.getSystem().eventStream().tell(new EventStream.Subscribe<>(UnhandledMessage.class, self.narrow()));
      return Behaviors.receive(Object.class)
          .onMessage(Dropped.class, d -> {
            lost(context, metrics, DroppedKind.DROPPED, d.message(), d.recipient(), d.reason());
            return Behaviors.same();
          })
          .onMessage(DeadLetter.class, d -> {
            lost(context, metrics, DroppedKind.DEAD_LETTER, d.message(), d.recipient(), "recipient stopped");
            return Behaviors.same();
          })
          .onMessage(UnhandledMessage.class, u -> {
            lost(context, metrics, DroppedKind.UNHANDLED, u.message(), u.recipient(), "no handler");
            return Behaviors.same();
          })
          .build();
    });
  }

  private static void lost(org.apache.pekko.actor.typed.javadsl.ActorContext<Object> context,
      ControllerMetrics metrics, DroppedKind kind, Object message, org.apache.pekko.actor.ActorRef recipient,
      String why) {
    metrics.commandDropped(kind);
    Object command = unwrapped(message);
    context.getLog().warn("lost a {} message ({}: {}) for {}", command == null ? "null" : command.getClass().getName(),
        kind.label(), why, recipient == null ? "nobody" : recipient.path());
  }

  /**
   * The command inside a persistent actor's stash envelope (Pekko wraps each command it stashes
   * in an internal one-field case class), so the log names the command; anything else as is.
   */
  static Object unwrapped(Object message) {
    if (message instanceof scala.Product p && p.productArity() == 1
        && p.getClass().getName().endsWith("InternalProtocol$IncomingCommand")) {
      return p.productElement(0);
    }
    return message;
  }
}
