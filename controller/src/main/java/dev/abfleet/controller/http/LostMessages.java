package dev.abfleet.controller.http;

import dev.abfleet.controller.http.ControllerMetrics.DroppedKind;
import java.util.List;
import org.apache.pekko.actor.DeadLetter;
import org.apache.pekko.actor.Dropped;
import org.apache.pekko.actor.UnhandledMessage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Makes a lost actor message loud: listens on the node's event stream for what Pekko publishes
 * when it gives a message up ({@code Dropped} by a full stash, {@code DeadLetter} for a stopped
 * recipient, {@code UnhandledMessage}), logs each of the controller's own messages (commands,
 * and replies on their way to an actor) with its class and counts it in
 * {@code abfleet_dropped_commands_total{kind}}. An answer to an ask that had already timed out
 * (its recipient is the ask's temporary actor, gone with the timeout) is not a lost command: the
 * command was handled, too late for the caller; it is logged and counted in
 * {@code abfleet_late_replies_total} instead. Pekko's own messages lost as a node stops
 * (cluster gossip, receptionist updates) are logged at debug level and not counted, nor are its
 * suppressed dead letters.
 */
public final class LostMessages {
  private LostMessages() {}

  /** Package prefix of the messages counted: the controller's own. */
  private static final String OURS = "dev.abfleet.";
  /** Pekko's one-field envelopes around a message: a persistent actor's stash, a message adapter. */
  private static final List<String> ENVELOPES = List.of("InternalProtocol$IncomingCommand", "internal.AdaptMessage");

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
            if (toTimedOutAsk(d.recipient()) && ours(d.message())) {
              metrics.lateReply();
              context.getLog().warn("late answer {} to an ask that had timed out ({})",
                  unwrapped(d.message()).getClass().getName(), d.recipient().path());
            } else {
              lost(context, metrics, DroppedKind.DEAD_LETTER, d.message(), d.recipient(), "recipient stopped");
            }
            return Behaviors.same();
          })
          .onMessage(UnhandledMessage.class, u -> {
            lost(context, metrics, DroppedKind.UNHANDLED, u.message(), u.recipient(), "no handler");
            return Behaviors.same();
          })
          .build();
    });
  }

  /** An ask's temporary actor: {@code /temp/...} on this node, gone once the ask timed out. */
  static boolean toTimedOutAsk(org.apache.pekko.actor.ActorRef recipient) {
    return recipient != null && recipient.path().toStringWithoutAddress().startsWith("/temp/");
  }

  private static boolean ours(Object message) {
    Object m = unwrapped(message);
    return m != null && m.getClass().getName().startsWith(OURS);
  }

  private static void lost(ActorContext<Object> context, ControllerMetrics metrics, DroppedKind kind,
      Object message, org.apache.pekko.actor.ActorRef recipient, String why) {
    Object command = unwrapped(message);
    if (!ours(message)) {
      context.getLog().debug("lost a Pekko {} message ({}: {}) for {}",
          command == null ? "null" : command.getClass().getName(), kind.label(), why, recipient);
      return;
    }
    metrics.commandDropped(kind);
    context.getLog().warn("lost a {} message ({}: {}) for {}", command.getClass().getName(), kind.label(),
        why, recipient == null ? "nobody" : recipient.path());
  }

  /**
   * The message inside Pekko's envelopes (a persistent actor wraps each command it stashes, a
   * message adapter the reply it adapts), so the log names it; anything else as is.
   */
  static Object unwrapped(Object message) {
    Object m = message;
    while (m instanceof scala.Product p && p.productArity() >= 1
        && ENVELOPES.stream().anyMatch(p.getClass().getName()::endsWith)) {
      m = p.productElement(0);
    }
    return m;
  }
}
