package dev.abfleet.controller.grpc;

import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.schedule.IntroduceHost;
import java.util.HashSet;
import java.util.Set;
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
 * introduce its host, and it passes that on to every live session of the node.
 */
final class SessionDirectory {

  /** A session started on this node; the directory watches it. No reply. */
  record Add(ActorRef<SessionMessage> session) implements SessionMessage {}

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
  private final Set<ActorRef<SessionMessage>> sessions = new HashSet<>();

  private SessionDirectory(ActorContext<SessionMessage> context) {
    this.context = context;
  }

  private Behavior<SessionMessage> behavior() {
    return Behaviors.receive(SessionMessage.class)
        .onMessage(Add.class, this::onAdd)
        .onMessage(Gone.class, this::onGone)
        .onMessage(IntroduceHost.class, this::onIntroduce)
        .build();
  }

  private Behavior<SessionMessage> onAdd(Add m) {
    if (sessions.add(m.session())) {
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
    sessions.forEach(session -> session.tell(m));
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
