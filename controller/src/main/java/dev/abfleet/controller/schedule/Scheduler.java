package dev.abfleet.controller.schedule;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.fleet.Fleet;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.controller.fleet.Lease;
import dev.abfleet.controller.fleet.LeaseBook;
import dev.abfleet.controller.fleet.SessionMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.Effect;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;

/**
 * The scheduling brain (a cluster singleton): knows the hosts, grants exclusive leases with
 * per-host epochs that only grow (persisted), asks experiments to plan a block for each lease and
 * hands the block to the host's session.
 */
public final class Scheduler extends EventSourcedBehavior<Scheduler.Command, Scheduler.Event, LeaseBook> {

  public sealed interface Command extends CborSerializable
      permits RegisterHost, HostDisconnected, RequestHosts, WithdrawDemand, BlockDone, ListHosts,
          PlanAnswered {}

  /** A worker's session holds the host's stream now; replaces an older session. No reply. */
  public record RegisterHost(HostCapabilities capabilities, ActorRef<SessionMessage> session)
      implements Command {}

  /** The session's stream ended or went silent; the host's lease is released. No reply. */
  public record HostDisconnected(String hostId, ActorRef<SessionMessage> session)
      implements Command {}

  /** The experiment wants hosts (idempotent; also re-arms it after NoBlockNeeded). No reply. */
  public record RequestHosts(
      String experimentId,
      HostSelector selector,
      String priority,
      ActorRef<ExperimentEntity.Command> experiment)
      implements Command {}

  /** The experiment wants no more hosts. No reply. */
  public record WithdrawDemand(String experimentId) implements Command {}

  /** The worker finished the block; frees the host if {@code epoch} is current. No reply. */
  public record BlockDone(String hostId, String blockId, long epoch) implements Command {}

  /** Replies {@link Hosts} with every known host. */
  public record ListHosts(ActorRef<Hosts> replyTo) implements Command {}

  public record Hosts(List<HostView> hosts) implements CborSerializable {}

  private record PlanAnswered(Lease lease, ExperimentEntity.PlanReply reply) implements Command {}

  public sealed interface Event extends CborSerializable permits HostLeased, LeaseReleased {}

  public record HostLeased(String hostId, long epoch, String experimentId) implements Event {}

  public record LeaseReleased(String hostId, long epoch) implements Event {}

  public static final PersistenceId PERSISTENCE_ID = PersistenceId.ofUniqueId("scheduler");
  static final Duration PLAN_TIMEOUT = Duration.ofSeconds(10);

  public static Behavior<Command> create() {
    return Behaviors.setup(Scheduler::new);
  }

  private final ActorContext<Command> context;
  // Rebuilt from hellos and experiment requests after a restart; only leases are durable.
  private Fleet fleet = Fleet.empty();
  private Demands demands = Demands.empty();

  private Scheduler(ActorContext<Command> context) {
    super(PERSISTENCE_ID);
    this.context = context;
  }

  @Override
  public LeaseBook emptyState() {
    return LeaseBook.empty();
  }

  @Override
  public CommandHandler<Command, Event, LeaseBook> commandHandler() {
    return newCommandHandlerBuilder()
        .forAnyState()
        .onCommand(RegisterHost.class, this::onRegisterHost)
        .onCommand(HostDisconnected.class, this::onHostDisconnected)
        .onCommand(RequestHosts.class, this::onRequestHosts)
        .onCommand(WithdrawDemand.class, this::onWithdrawDemand)
        .onCommand(BlockDone.class, this::onBlockDone)
        .onCommand(ListHosts.class, this::onListHosts)
        .onCommand(PlanAnswered.class, this::onPlanAnswered)
        .build();
  }

  @Override
  public EventHandler<LeaseBook, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(HostLeased.class,
            (book, e) -> book.leased(new Lease(e.hostId(), e.epoch(), e.experimentId())))
        .onEvent(LeaseReleased.class, (book, e) -> book.released(e.hostId(), e.epoch()))
        .build();
  }

  private Effect<Event, LeaseBook> onRegisterHost(LeaseBook book, RegisterHost cmd) {
    String hostId = cmd.capabilities().hostId();
    var previous = fleet.host(hostId).map(Fleet.Host::session).orElse(null);
    if (!cmd.session().equals(previous)) {
      if (previous != null) {
        context.unwatch(previous);
        previous.tell(new SessionReplaced(hostId));
      }
      context.watchWith(cmd.session(), new HostDisconnected(hostId, cmd.session()));
    }
    fleet = fleet.connected(cmd.capabilities(), cmd.session());
    // A lease still in force belongs to an older stream of this host (or an older controller).
    return releaseAndSchedule(book, book.leaseOf(hostId).orElse(null), "host reconnected");
  }

  private Effect<Event, LeaseBook> onHostDisconnected(LeaseBook book, HostDisconnected cmd) {
    var host = fleet.host(cmd.hostId());
    if (host.isEmpty() || !cmd.session().equals(host.get().session())) {
      return Effect().none();
    }
    context.unwatch(cmd.session());
    fleet = fleet.disconnected(cmd.hostId(), cmd.session());
    return releaseAndSchedule(book, book.leaseOf(cmd.hostId()).orElse(null), "host went offline");
  }

  private Effect<Event, LeaseBook> onRequestHosts(LeaseBook book, RequestHosts cmd) {
    demands = demands.wanting(
        new Demand(cmd.experimentId(), cmd.selector(), cmd.priority(), cmd.experiment(), true));
    return persistAndSchedule(List.of(), book, null, "");
  }

  private Effect<Event, LeaseBook> onWithdrawDemand(LeaseBook book, WithdrawDemand cmd) {
    demands = demands.without(cmd.experimentId());
    return Effect().none();
  }

  private Effect<Event, LeaseBook> onBlockDone(LeaseBook book, BlockDone cmd) {
    if (!book.isCurrent(cmd.hostId(), cmd.epoch())) {
      return Effect().none();
    }
    return persistAndSchedule(
        List.of(new LeaseReleased(cmd.hostId(), cmd.epoch())),
        book.released(cmd.hostId(), cmd.epoch()), null, "");
  }

  private Effect<Event, LeaseBook> onListHosts(LeaseBook book, ListHosts cmd) {
    cmd.replyTo().tell(new Hosts(HostView.list(fleet, book)));
    return Effect().none();
  }

  private Effect<Event, LeaseBook> onPlanAnswered(LeaseBook book, PlanAnswered msg) {
    Lease lease = msg.lease();
    if (!book.isCurrent(lease.hostId(), lease.epoch())) {
      if (msg.reply() instanceof ExperimentEntity.BlockPlanned) {
        tellLeaseLost(lease, "host went offline before the block was assigned");
      }
      return Effect().none();
    }
    if (msg.reply() instanceof ExperimentEntity.BlockPlanned planned) {
      fleet.host(lease.hostId()).map(Fleet.Host::session)
          .ifPresent(s -> s.tell(new AssignBlock(planned.block())));
      return Effect().none();
    }
    if (msg.reply() instanceof ExperimentEntity.NoBlockNeeded) {
      demands = demands.satisfied(lease.experimentId());
    } else {
      context.getLog().warn("experiment {} did not plan a block for host {} in {}",
          lease.experimentId(), lease.hostId(), PLAN_TIMEOUT);
    }
    return persistAndSchedule(
        List.of(new LeaseReleased(lease.hostId(), lease.epoch())),
        book.released(lease.hostId(), lease.epoch()), null, "");
  }

  private Effect<Event, LeaseBook> releaseAndSchedule(LeaseBook book, Lease lease, String why) {
    if (lease == null) {
      return persistAndSchedule(List.of(), book, null, why);
    }
    return persistAndSchedule(
        List.of(new LeaseReleased(lease.hostId(), lease.epoch())),
        book.released(lease.hostId(), lease.epoch()), lease, why);
  }

  /** Persists {@code first} (already applied in {@code after}) plus every lease now grantable. */
  private Effect<Event, LeaseBook> persistAndSchedule(
      List<Event> first, LeaseBook after, Lease lost, String why) {
    Scheduling.Grants grants = Scheduling.grant(fleet, after, demands);
    demands = grants.demands();
    List<Event> events = new ArrayList<>(first);
    grants.leases().forEach(l -> events.add(new HostLeased(l.hostId(), l.epoch(), l.experimentId())));
    if (events.isEmpty()) {
      return Effect().none();
    }
    return Effect().persist(events).thenRun(state -> {
      if (lost != null) {
        tellLeaseLost(lost, why);
      }
      grants.leases().forEach(this::askForBlock);
    });
  }

  private void tellLeaseLost(Lease lease, String why) {
    demands.find(lease.experimentId()).ifPresent(d -> d.experiment()
        .tell(new ExperimentEntity.LeaseLost(lease.hostId(), lease.epoch(), why)));
  }

  private void askForBlock(Lease lease) {
    HostCapabilities capabilities = fleet.host(lease.hostId()).orElseThrow().capabilities();
    ActorRef<ExperimentEntity.Command> experiment =
        demands.find(lease.experimentId()).orElseThrow().experiment();
    context.ask(
        ExperimentEntity.PlanReply.class,
        experiment,
        PLAN_TIMEOUT,
        replyTo -> new ExperimentEntity.PlanBlock(
            lease.hostId(), lease.epoch(), capabilities, replyTo),
        (reply, failure) -> new PlanAnswered(lease, reply));
  }
}
