package dev.abfleet.controller.grpc;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.schedule.IntroduceHost;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;

/**
 * The host sessions of this node, one actor per node. It, not each session, registers under
 * {@link SessionMessage#SESSIONS}: the receptionist replicates its registrations to every node,
 * which at thousands of hosts costs a fifth of a core; one entry per node costs nothing. A
 * scheduler that starts after a failover asks it, like any session it does not know, to
 * introduce its host, and it passes that on to every live session of the node. Asked, it says
 * when each of its hosts last spoke ({@link HeartbeatAges} asks every node's directory).
 */
final class SessionDirectory {

  /**
   * A session started on this node; the directory watches it. Local only (never leaves the
   * node): {@code silentNanos} reads the session's stream. No reply.
   *
   * @param hostId the session's host; empty = not known (then not in {@link Heard})
   * @param silentNanos time since the worker's last message reached the transport, ns
   */
  record Add(ActorRef<SessionMessage> session, String hostId, LongSupplier silentNanos)
      implements SessionMessage {
    Add(ActorRef<SessionMessage> session) {
      this(session, "", () -> 0);
    }
  }

  /** Replies {@link Heard}: when each host of this node's sessions last spoke. */
  record ListHeard(ActorRef<Heard> replyTo) implements SessionMessage {}

  /**
   * @param silentMs host id -> ms since its worker's last message (a heartbeat or any other)
   *     reached this node, for every live session of the node that knows its host
   */
  public record Heard(Map<String, Long> silentMs) implements CborSerializable {}

  private record Gone(ActorRef<SessionMessage> session) implements SessionMessage {}

  /** The directory of {@code system}'s node, started on first use. */
  static ActorRef<SessionMessage> of(ActorSystem<?> system) {
    return Holder.ID.apply(system).directory;
  }

  static Behavior<SessionMessage> create() {
    return Behaviors.setup(context -> {
      context.getSystem().receptionist().tell(Receptionist.register(SessionMessage.SESSIONS, context.getSelf()));
      return new SessionDirectory(context).behavior();
    });
  }

  private final ActorContext<SessionMessage> context;
  // Session -> its Add (host id and stream silence).
  private final Map<ActorRef<SessionMessage>, Add> sessions = new HashMap<>();

  private SessionDirectory(ActorContext<SessionMessage> context) {
    this.context = context;
  }

  private Behavior<SessionMessage> behavior() {
    return Behaviors.receive(SessionMessage.class)
        .onMessage(Add.class, this::onAdd)
        .onMessage(Gone.class, this::onGone)
        .onMessage(IntroduceHost.class, this::onIntroduce)
        .onMessage(ListHeard.class, this::onListHeard)
        .build();
  }

  private Behavior<SessionMessage> onAdd(Add m) {
    if (sessions.put(m.session(), m) == null) {
      context.watchWith(m.session(), new Gone(m.session()));
    }
    return Behaviors.same();
  }

  private Behavior<SessionMessage> onGone(Gone m) {
    sessions.remove(m.session());
    return Behaviors.same();
  }

  private Behavior<SessionMessage> onIntroduce(IntroduceHost m) {
    context.getLog().info("introducing the {} host sessions of this node ({})", sessions.size(), m.why());
    sessions.keySet().forEach(session -> session.tell(m));
    return Behaviors.same();
  }

  /** A host with two sessions here (a reconnect the old one has not noticed yet): the newest word counts. */
  private Behavior<SessionMessage> onListHeard(ListHeard m) {
    Map<String, Long> heard = new HashMap<>();
    sessions.values().stream().filter(a -> !a.hostId().isEmpty()).forEach(a ->
        heard.merge(a.hostId(), Math.max(0, a.silentNanos().getAsLong()) / 1_000_000, Math::min));
    m.replyTo().tell(new Heard(Map.copyOf(heard)));
    return Behaviors.same();
  }

  private static final class Holder implements Extension {
    private static final Id ID = new Id();
    private final ActorRef<SessionMessage> directory;

    private Holder(ActorSystem<?> system) {
      this.directory = system.systemActorOf(create(), "host-sessions", Props.empty());
    }

    private static final class Id extends ExtensionId<Holder> {
      @Override
      public Holder createExtension(ActorSystem<?> system) {
        return new Holder(system);
      }
    }
  }
}
