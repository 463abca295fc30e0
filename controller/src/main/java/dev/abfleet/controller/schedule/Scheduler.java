package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.Fence;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.fleet.Fleet;
import dev.abfleet.controller.fleet.FreeHosts;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostInterference;
import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.controller.fleet.Lease;
import dev.abfleet.controller.fleet.LeaseBook;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.store.GroupCommit;
import dev.abfleet.controller.store.SnapshotPacing;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.Effect;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * The scheduling brain (a cluster singleton): knows the hosts, grants exclusive leases with
 * per-host epochs that only grow, asks experiments to plan a block for each lease and hands the
 * block to the host's session. Leases, the host states an operator or the health check set
 * (draining, quarantined) and the histories quarantines are decided from (INFRA streaks, paired
 * noise) are persisted; who is connected is rebuilt from worker hellos.
 */
public final class Scheduler
    extends EventSourcedBehavior<Scheduler.Command, Scheduler.Event, SchedulerState>
    implements SchedulerProtocol {

  record LeaseExpired(String hostId, long epoch, Duration after) implements Command {}

  record CoolDownOver(String hostId, long sinceEpochMs) implements Command {}

  record PlanAnswered(Lease lease, LeaseHolder.PlanReply reply) implements Command {}

  /** The sessions registered on any node when this scheduler started (receptionist listing). */
  record SessionsFound(Set<ActorRef<SessionMessage>> sessions) implements Command {}

  /** Persists the lease changes queued since the last flush, as one write. */
  enum Flush implements Command { INSTANCE }

  // Persisted events: their class names (Scheduler$HostLeased...) are the manifests in existing
  // journals, so they stay nested here and are never renamed; new fields must be optional.
  public sealed interface Event extends CborSerializable
      permits HostLeased, LeaseReleased, HostDrained, HostUndrained, HostQuarantined, HostReleased,
          InfraFailed, InfraStreakEnded, NoiseRecorded {
    /** The host the event is about. */
    String hostId();
  }

  public record HostLeased(String hostId, long epoch, String experimentId) implements Event {}

  public record LeaseReleased(String hostId, long epoch) implements Event {}

  public record HostDrained(String hostId, String reason) implements Event {}

  public record HostUndrained(String hostId) implements Event {}

  /** @param sinceEpochMs when, in ms since the epoch */
  public record HostQuarantined(String hostId, String reason, long sinceEpochMs) implements Event {}

  /** @param why "operator" or "cool-down" */
  public record HostReleased(String hostId, String why) implements Event {}

  /** A boot on the host failed for the host's sake (INFRA): its streak grows by one. */
  public record InfraFailed(String hostId) implements Event {}

  /** A boot on the host said something about its arm: the host's INFRA streak is over. */
  public record InfraStreakEnded(String hostId) implements Event {}

  /**
   * An experiment's absolute paired residuals on the host (log units), appended to its noise
   * history, which keeps the newest {@code keep}.
   */
  public record NoiseRecorded(String hostId, double[] residuals, int keep) implements Event {}

  public static final PersistenceId PERSISTENCE_ID = PersistenceId.ofUniqueId("scheduler");
  static final Duration PLAN_TIMEOUT = Duration.ofSeconds(10);
  /** Experiments whose lease-lost notices are held at most (see heldNotices). */
  static final int MAX_HELD_NOTICES = 10_000;
  /** A build lease with no report after this long is revoked and the build runs elsewhere. */
  static final Duration BUILD_LEASE_TIMEOUT = Duration.ofHours(3);

  /** A scheduler with {@link FleetPolicy#defaults()}. */
  public static Behavior<Command> create() {
    return create(FleetPolicy.defaults());
  }

  /** A scheduler that never snapshots (recovery replays every event). */
  public static Behavior<Command> create(FleetPolicy policy) {
    return create(policy, 0);
  }

  /**
   * @param snapshotEvery save a snapshot of the state after at least this many events and at
   *     least as many as the state has entries ({@link SnapshotPacing}); 0 = never
   */
  public static Behavior<Command> create(FleetPolicy policy, int snapshotEvery) {
    return create(policy, snapshotEvery, Clock.systemUTC());
  }

  /**
   * @param clock the wall clock of boot starts (preemption picks the boot that ends soonest) and
   *     of quarantine cool-downs, which are persisted as wall times and outlive a restart
   */
  public static Behavior<Command> create(FleetPolicy policy, int snapshotEvery, Clock clock) {
    return Behaviors.setup(context -> Behaviors.withTimers(
        timers -> new Scheduler(context, timers, policy, snapshotEvery, clock)));
  }

  private final ActorContext<Command> context;
  private final TimerScheduler<Command> timers;
  private final FleetPolicy policy;
  private final SnapshotPacing snapshots;
  private final Clock clock;
  // Rebuilt from hellos and experiment requests after a restart; SchedulerState is durable.
  private Fleet fleet = Fleet.empty();
  // The hosts that may take a lease now, kept in step with the fleet and the current state.
  private final FreeHosts free = new FreeHosts();
  private Demands demands = Demands.empty();
  private final Quarantines quarantines;
  // Host id -> the preemption under way there; forgotten once its victim lease is gone.
  private final Map<String, Scheduling.Preemption> preempting = new HashMap<>();
  private final GroupCommit<SchedulerState, Event> writes = groupCommit();
  // The persisted state the command being handled was given (GroupCommit chains onto it).
  private SchedulerState persisted = SchedulerState.empty();
  // Host id -> when its boot in progress began (the lease, or its last finished boot): the
  // preemption victim is the host whose boot ends soonest. In memory; leases are too.
  private final Map<String, Long> bootSince = new HashMap<>();
  // Experiment id -> lease-lost notices for an experiment this scheduler has not heard from (a
  // lease recovered from the journal after a failover, whose experiment asked the old scheduler):
  // handed over when it asks for hosts again (its watchdog makes sure it does). In memory only;
  // at most one per lease, and bounded in case an experiment never asks again.
  private final Map<String, List<LeaseHolder.LeaseLost>> heldNotices =
      new java.util.LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<LeaseHolder.LeaseLost>> eldest) {
          return size() > MAX_HELD_NOTICES;
        }
      };
  // Host id -> reports its sessions refused since this scheduler started. In memory only.
  private final Map<String, Long> rejectedReports = new HashMap<>();
  // Each host's newest boots marked interfered, for the noisy flag. In memory only.
  private final HostInterference interference = new HostInterference(HostInterference.Rule.defaults());
  // Queue standings, kept while neither the leases nor the demands change (watchers ask often).
  private Map<String, Standing> standings = Map.of();
  private LeaseBook standingsLeases;
  private Demands standingsDemands;

  private Scheduler(ActorContext<Command> context, TimerScheduler<Command> timers,
      FleetPolicy policy, int snapshotEvery, Clock clock) {
    super(PERSISTENCE_ID);
    this.context = context;
    this.timers = timers;
    this.policy = policy;
    this.snapshots = new SnapshotPacing(snapshotEvery);
    this.clock = clock;
    this.quarantines = new Quarantines(policy);
  }

  /** Events stay in the journal; snapshots only bound the replay after a failover. */
  @Override
  public RetentionCriteria retentionCriteria() {
    return snapshots.retention();
  }

  /** A snapshot writes every host the state knows: paced by that count ({@link SnapshotPacing}). */
  @Override
  public boolean shouldSnapshot(SchedulerState state, Event event, long sequenceNr) {
    return snapshots.due(sequenceNr, state.entries());
  }

  /** Quarantines persisted before a restart end at their cool-down all the same. */
  @Override
  public SignalHandler<SchedulerState> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.instance(), state -> {
          // Operators (and the failover test) find the singleton's node by this line.
          context.getLog().info("scheduler singleton running on {} (recovered {} leases)",
              context.getSystem().address(), state.leases().active().size());
          state.marks().quarantined().forEach((host, q) -> armCoolDown(host, q.sinceEpochMs()));
          // After a failover the hosts connected to surviving nodes are still there: ask them in.
          context.getSystem().receptionist().tell(Receptionist.find(SessionMessage.SESSIONS,
              context.messageAdapter(Receptionist.Listing.class,
                  listing -> new SessionsFound(listing.getServiceInstances(SessionMessage.SESSIONS)))));
        })
        .build();
  }

  @Override
  public SchedulerState emptyState() {
    return SchedulerState.empty();
  }

  @Override
  public CommandHandler<Command, Event, SchedulerState> commandHandler() {
    return newCommandHandlerBuilder()
        .forAnyState()
        .onCommand(RegisterHost.class, (state, cmd) -> onRegisterHost(current(state), cmd))
        .onCommand(HostDisconnected.class, (state, cmd) -> onHostDisconnected(current(state), cmd))
        .onCommand(RequestHosts.class, (state, cmd) -> onRequestHosts(current(state), cmd))
        .onCommand(WithdrawDemand.class, (state, cmd) -> onWithdrawDemand(current(state), cmd))
        .onCommand(BlockDone.class, (state, cmd) -> onBlockDone(current(state), cmd))
        .onCommand(ListHosts.class, (state, cmd) -> onListHosts(current(state), cmd))
        .onCommand(DrainHost.class, (state, cmd) -> onDrainHost(current(state), cmd))
        .onCommand(UndrainHost.class, (state, cmd) -> onUndrainHost(current(state), cmd))
        .onCommand(ReleaseHost.class, (state, cmd) -> onReleaseHost(current(state), cmd))
        .onCommand(CheckSelector.class, (state, cmd) -> onCheckSelector(current(state), cmd))
        .onCommand(GetStanding.class, (state, cmd) -> onGetStanding(current(state), cmd))
        .onCommand(GetQueue.class, (state, cmd) -> onGetQueue(current(state), cmd))
        .onCommand(RunHandled.class, (state, cmd) -> onRunHandled(current(state), cmd))
        .onCommand(PlanAnswered.class, (state, cmd) -> onPlanAnswered(current(state), cmd))
        .onCommand(LeaseExpired.class, (state, cmd) -> onLeaseExpired(current(state), cmd))
        .onCommand(CoolDownOver.class, (state, cmd) -> onCoolDownOver(current(state), cmd))
        .onCommand(NoiseObserved.class, (state, cmd) -> onNoiseObserved(current(state), cmd))
        .onCommand(Flush.class, (state, cmd) -> onFlush(state))
        .onCommand(SessionsFound.class, (state, cmd) -> onSessionsFound(cmd))
        .onCommand(ReportRejected.class, (state, cmd) -> onReportRejected(cmd))
        .build();
  }

  /** The scheduler's write buffer: its events, applied as its event handler applies them. */
  static GroupCommit<SchedulerState, Event> groupCommit() {
    return new GroupCommit<>("scheduler", SchedulerState::apply);
  }

  @Override
  public EventHandler<SchedulerState, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(writes::written);
  }

  private Effect<Event, SchedulerState> onRegisterHost(SchedulerState state, RegisterHost cmd) {
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
    refreshFree(hostId);
    demands = demands.withoutDeclines();
    // A lease still in force belongs to an older stream of this host (or an older controller).
    return releaseAndSchedule(state, state.leases().leaseOf(hostId).orElse(null), "host reconnected");
  }

  private Effect<Event, SchedulerState> onSessionsFound(SessionsFound cmd) {
    Set<ActorRef<SessionMessage>> known = new java.util.HashSet<>();
    fleet.hosts().values().forEach(h -> known.add(h.session()));
    cmd.sessions().stream()
        .filter(session -> !known.contains(session))
        .forEach(session -> session.tell(new IntroduceHost("scheduler started on "
            + context.getSystem().address())));
    return Effect().none();
  }

  private Effect<Event, SchedulerState> onReportRejected(ReportRejected cmd) {
    rejectedReports.merge(cmd.hostId(), 1L, Long::sum);
    return Effect().none();
  }

  private Effect<Event, SchedulerState> onHostDisconnected(SchedulerState state, HostDisconnected cmd) {
    var host = fleet.host(cmd.hostId());
    if (host.isEmpty() || !cmd.session().equals(host.get().session())) {
      return Effect().none();
    }
    context.unwatch(cmd.session());
    fleet = fleet.disconnected(cmd.hostId(), cmd.session());
    refreshFree(cmd.hostId());
    demands = demands.withoutDeclines();
    return releaseAndSchedule(state, state.leases().leaseOf(cmd.hostId()).orElse(null),
        "host went offline");
  }

  private Effect<Event, SchedulerState> onRequestHosts(SchedulerState state, RequestHosts cmd) {
    demands = demands.wanting(new Demand(cmd.experimentId(), cmd.selector(), cmd.priority(),
        cmd.experiment(), true, java.util.Set.of(), cmd.openPairs()));
    List<LeaseHolder.LeaseLost> held = heldNotices.remove(cmd.experimentId());
    if (held != null) {
      held.forEach(cmd.experiment()::tell);
    }
    return persistAndSchedule(state, List.of(), s -> { });
  }

  /**
   * The experiment has ended (completed, possibly early by its sequential design; cancelled; or
   * failed): its blocks still running are stopped at once, since no boot of theirs can count
   * any more; each lease ends with the worker's BlockFinished as usual.
   */
  private Effect<Event, SchedulerState> onWithdrawDemand(SchedulerState state, WithdrawDemand cmd) {
    demands = demands.without(cmd.experimentId());
    heldNotices.remove(cmd.experimentId());
    state.leases().active().values().stream()
        .filter(lease -> lease.experimentId().equals(cmd.experimentId()))
        .forEach(lease -> fleet.host(lease.hostId()).map(Fleet.Host::session).ifPresent(session ->
            session.tell(new StopBlock(lease.epoch(), false, "experiment " + cmd.experimentId() + " has ended"))));
    return Effect().none();
  }

  private Effect<Event, SchedulerState> onBlockDone(SchedulerState state, BlockDone cmd) {
    if (!state.leases().isCurrent(cmd.hostId(), cmd.epoch())) {
      return Effect().none();
    }
    return persistAndSchedule(state, List.of(new LeaseReleased(cmd.hostId(), cmd.epoch())), s -> { });
  }

  /** Answered from what is written: after the next flush when changes wait for it. */
  private Effect<Event, SchedulerState> onListHosts(SchedulerState state, ListHosts cmd) {
    Consumer<SchedulerState> answer = s -> cmd.replyTo().tell(new Hosts(HostView.page(cmd.page(), fleet,
        s.leases(), s.marks(), s.health(), rejectedReports, s.noise(), policy.noiseRule().recent(),
        interference)));
    if (writes.hasPending()) {
      return persistAndSchedule(state, List.of(), answer);
    }
    answer.accept(state);
    return Effect().none();
  }

  private Effect<Event, SchedulerState> onDrainHost(SchedulerState state, DrainHost cmd) {
    // Draining again with a new reason keeps the host drained and replaces the reason.
    boolean same = state.marks().isDraining(cmd.hostId())
        && (cmd.reason().isEmpty() || cmd.reason().equals(state.marks().drainReason(cmd.hostId())));
    if (fleet.host(cmd.hostId()).isEmpty() || same) {
      return replyHost(state, cmd.hostId(), cmd.replyTo());
    }
    context.getLog().info("draining host {}: {}", cmd.hostId(), cmd.reason());
    demands = demands.withoutDeclines();
    persistAndSchedule(state, List.of(new HostDrained(cmd.hostId(), cmd.reason())),
        s -> cmd.replyTo().tell(hostReply(s, cmd.hostId())));
    return flushNow();
  }

  private Effect<Event, SchedulerState> onUndrainHost(SchedulerState state, UndrainHost cmd) {
    if (fleet.host(cmd.hostId()).isEmpty() || !state.marks().isDraining(cmd.hostId())) {
      return replyHost(state, cmd.hostId(), cmd.replyTo());
    }
    demands = demands.withoutDeclines();
    return persistAndSchedule(state, List.of(new HostUndrained(cmd.hostId())),
        s -> cmd.replyTo().tell(hostReply(s, cmd.hostId())));
  }

  private Effect<Event, SchedulerState> onReleaseHost(SchedulerState state, ReleaseHost cmd) {
    interference.forget(cmd.hostId());
    if (fleet.host(cmd.hostId()).isEmpty() || state.marks().quarantine(cmd.hostId()).isEmpty()) {
      if (state.health().streak(cmd.hostId()) > 0) {
        // Not quarantined (yet): the operator's release still forgives the host's INFRA streak.
        persistAndSchedule(state, List.of(new InfraStreakEnded(cmd.hostId())),
            s -> cmd.replyTo().tell(hostReply(s, cmd.hostId())));
        return flushNow();
      }
      return replyHost(state, cmd.hostId(), cmd.replyTo());
    }
    demands = demands.withoutDeclines();
    return persistAndSchedule(state, List.of(new HostReleased(cmd.hostId(), "operator")),
        s -> cmd.replyTo().tell(hostReply(s, cmd.hostId())));
  }

  private Effect<Event, SchedulerState> onCheckSelector(SchedulerState state, CheckSelector cmd) {
    var known = fleet.hosts().values().stream().map(Fleet.Host::capabilities).toList();
    cmd.replyTo().tell(new SelectorCheck(FleetSummary.unsatisfiable(cmd.selector(), known).orElse("")));
    return Effect().none();
  }

  private Effect<Event, SchedulerState> onGetStanding(SchedulerState state, GetStanding cmd) {
    cmd.replyTo().tell(standings(state).getOrDefault(cmd.experimentId(), new Standing(0, 0)));
    return Effect().none();
  }

  private Effect<Event, SchedulerState> onGetQueue(SchedulerState state, GetQueue cmd) {
    java.util.Map<String, Integer> waiting = new java.util.TreeMap<>();
    for (String p : List.of("pr", "adhoc", "nightly")) {
      waiting.put(p, 0);
    }
    Map<String, Standing> line = standings(state);
    for (Demand d : demands.queue()) {
      Standing st = line.get(d.experimentId());
      if (st != null && st.queuePosition() > 0) {
        waiting.merge(d.priority().isEmpty() ? "adhoc" : d.priority(), 1, Integer::sum);
      }
    }
    cmd.replyTo().tell(new Queue(waiting));
    return Effect().none();
  }

  /** Places in line, recomputed only when leases or demands changed since the last ask. */
  private Map<String, Standing> standings(SchedulerState state) {
    if (state.leases() != standingsLeases || demands != standingsDemands) {
      standings = Scheduling.standings(state.leases(), demands);
      standingsLeases = state.leases();
      standingsDemands = demands;
    }
    return standings;
  }

  private Effect<Event, SchedulerState> onRunHandled(SchedulerState state, RunHandled cmd) {
    if (state.leases().leaseOf(cmd.hostId()).isPresent()) {
      bootSince.put(cmd.hostId(), clock.millis());
    }
    if (!cmd.infra()) {
      boolean wasNoisy = interference.noisy(cmd.hostId()).isPresent();
      interference.observed(cmd.hostId(), cmd.interfered());
      interference.noisy(cmd.hostId()).filter(why -> !wasNoisy)
          .ifPresent(why -> context.getLog().warn("host {} is noisy: {}", cmd.hostId(), why));
    }
    SchedulerState after = record(quarantines.afterRun(state.health(), cmd.hostId(), cmd.infra()));
    quarantine(after, quarantines.streakReason(after.health(), cmd.hostId(), cmd.message())
        .map(why -> Map.of(cmd.hostId(), why)).orElse(Map.of()));
    // Written at the next flush with everything else queued: one write per report would stash
    // every other command of the fleet behind it.
    return Effect().none();
  }

  private Effect<Event, SchedulerState> onNoiseObserved(SchedulerState state, NoiseObserved cmd) {
    SchedulerState after = record(quarantines.noiseRecorded(cmd.residualsByHost()));
    quarantine(after, quarantines.drifted(after.noise(), cmd.residualsByHost().keySet(), cmd.experimentId()));
    return flushNow();
  }

  /**
   * Quarantines the hosts (host -> reason) not quarantined yet, as long as the fleet's cap
   * allows; a quarantined host's lease ends with its block.
   *
   * @param state the current state, the histories the reasons come from included
   */
  private void quarantine(SchedulerState state, Map<String, String> reasons) {
    List<Event> events = new ArrayList<>();
    List<String> quarantinedNow = new ArrayList<>();
    int quarantined = state.marks().quarantined().size();
    long now = clock.millis();
    for (var entry : reasons.entrySet()) {
      String host = entry.getKey();
      if (state.marks().quarantine(host).isPresent() || fleet.host(host).isEmpty()) {
        continue;
      }
      if (!policy.mayQuarantine(fleet.hosts().size(), quarantined)) {
        capReached(host, entry.getValue(), quarantined);
        continue;
      }
      context.getLog().warn("quarantining host {}: {}", host, entry.getValue());
      events.add(new HostQuarantined(host, entry.getValue(), now));
      quarantinedNow.add(host);
      quarantined++;
    }
    if (events.isEmpty()) {
      return;
    }
    demands = demands.withoutDeclines();
    persistAndSchedule(state, events, s -> quarantinedNow.forEach(host -> armCoolDown(host, now)));
  }

  private void capReached(String hostId, String reason, int quarantinedNow) {
    context.getLog().warn("host {} should be quarantined ({}) but the quarantine cap is reached"
        + " ({} of {} hosts)", hostId, reason, quarantinedNow, fleet.hosts().size());
  }

  private Effect<Event, SchedulerState> onCoolDownOver(SchedulerState state, CoolDownOver msg) {
    var quarantine = state.marks().quarantine(msg.hostId());
    if (quarantine.isEmpty() || quarantine.get().sinceEpochMs() != msg.sinceEpochMs()) {
      return Effect().none();
    }
    demands = demands.withoutDeclines();
    context.getLog().info("host {} leaves quarantine after its cool-down", msg.hostId());
    return persistAndSchedule(state, List.of(new HostReleased(msg.hostId(), "cool-down")), s -> { });
  }

  /** A block that holds its host far beyond its boots' timeouts is revoked; its pair re-runs. */
  private Effect<Event, SchedulerState> onLeaseExpired(SchedulerState state, LeaseExpired msg) {
    var lease = state.leases().leaseOf(msg.hostId());
    if (!Fence.inForce(lease.orElse(null), msg.epoch())) {
      return Effect().none();
    }
    String why = "lease timed out: no BlockFinished after " + msg.after().toSeconds() + " s";
    context.getLog().warn("host {}: {}", msg.hostId(), why);
    fleet.host(msg.hostId()).map(Fleet.Host::session)
        .ifPresent(session -> session.tell(new StopBlock(msg.epoch(), false, why)));
    return releaseAndSchedule(state, lease.get(), why);
  }

  private void armCoolDown(String hostId, long sinceEpochMs) {
    long left = sinceEpochMs + policy.quarantineCoolDown().toMillis() - clock.millis();
    timers.startSingleTimer("cool-down-" + hostId, new CoolDownOver(hostId, sinceEpochMs),
        Duration.ofMillis(Math.max(0, left)));
  }

  private Effect<Event, SchedulerState> onPlanAnswered(SchedulerState state, PlanAnswered msg) {
    Lease lease = msg.lease();
    if (!state.leases().isCurrent(lease.hostId(), lease.epoch())) {
      if (msg.reply() instanceof LeaseHolder.BlockPlanned || msg.reply() instanceof LeaseHolder.BuildPlanned) {
        tellLeaseLost(lease, "host went offline before the block was assigned");
      }
      return Effect().none();
    }
    if (msg.reply() instanceof LeaseHolder.BuildPlanned planned) {
      fleet.host(lease.hostId()).map(Fleet.Host::session)
          .ifPresent(s -> s.tell(new AssignBuild(planned.job())));
      timers.startSingleTimer("lease-" + lease.hostId(),
          new LeaseExpired(lease.hostId(), lease.epoch(), BUILD_LEASE_TIMEOUT), BUILD_LEASE_TIMEOUT);
      return Effect().none();
    }
    if (msg.reply() instanceof LeaseHolder.BlockPlanned planned) {
      fleet.host(lease.hostId()).map(Fleet.Host::session)
          .ifPresent(s -> s.tell(new AssignBlock(planned.block())));
      Duration limit = policy.leaseTimeout(planned.block());
      if (!limit.isZero()) {
        timers.startSingleTimer("lease-" + lease.hostId(),
            new LeaseExpired(lease.hostId(), lease.epoch(), limit), limit);
      }
      return Effect().none();
    }
    if (msg.reply() instanceof LeaseHolder.NoBlockNeeded none) {
      demands = none.wantsOtherHost()
          ? demands.declined(lease.experimentId(), lease.hostId())
          : demands.satisfied(lease.experimentId());
    } else {
      context.getLog().warn("experiment {} did not plan a block for host {} in {}",
          lease.experimentId(), lease.hostId(), PLAN_TIMEOUT);
    }
    return persistAndSchedule(state, List.of(new LeaseReleased(lease.hostId(), lease.epoch())),
        s -> { });
  }

  private Effect<Event, SchedulerState> replyHost(
      SchedulerState state, String hostId, ActorRef<HostReply> replyTo) {
    replyTo.tell(hostReply(state, hostId));
    return Effect().none();
  }

  private HostReply hostReply(SchedulerState state, String hostId) {
    return fleet.host(hostId)
        .<HostReply>map(h -> new HostChanged(HostView.of(h, state.leases(), state.marks(), state.health(),
            rejectedReports.getOrDefault(hostId, 0L),
            state.noise().latest(hostId, policy.noiseRule().recent()), interference)))
        .orElseGet(() -> new UnknownHost(hostId, fleet.hosts().keySet().stream().sorted().toList()));
  }

  private Effect<Event, SchedulerState> releaseAndSchedule(
      SchedulerState state, Lease lease, String why) {
    if (lease == null) {
      return persistAndSchedule(state, List.of(), s -> { });
    }
    return persistAndSchedule(state, List.of(new LeaseReleased(lease.hostId(), lease.epoch())),
        s -> tellLeaseLost(lease, why));
  }

  /** What every handler reads: the persisted state plus the changes waiting for the flush. */
  private SchedulerState current(SchedulerState state) {
    persisted = state;
    return writes.current(state);
  }

  /**
   * Writes what is queued at once instead of at the Flush message (which then finds nothing):
   * for the histories and marks that were persisted by their own handler before the group
   * commit, so that they are durable as soon as their command is handled.
   */
  private Effect<Event, SchedulerState> flushNow() {
    return writes.hasPending() ? onFlush(persisted) : Effect().none();
  }

  /** Queues history events (streaks, noise) for the next flush; returns the state with them. */
  private SchedulerState record(List<Event> events) {
    if (!events.isEmpty()) {
      persistAndSchedule(persisted, events, s -> { });
    }
    return writes.current(persisted);
  }

  /**
   * Queues {@code first} for the next flush, which persists it together with a lease for every
   * idle host a wanting experiment can use, then runs {@code then} and asks the experiments for
   * blocks. Everything queued before the flush is written at once (group commit).
   */
  private Effect<Event, SchedulerState> persistAndSchedule(
      SchedulerState state, List<Event> first, Consumer<SchedulerState> then) {
    if (writes.queue(persisted, first, then)) {
      context.getSelf().tell(Flush.INSTANCE);
    }
    first.forEach(e -> refreshFree(e.hostId()));
    return Effect().none();
  }

  private void refreshFree(String hostId) {
    SchedulerState now = writes.current(persisted);
    free.refresh(hostId, fleet, now.leases(), now.marks());
  }

  private Effect<Event, SchedulerState> onFlush(SchedulerState state) {
    SchedulerState queued = current(state);
    Scheduling.Grants grants = Scheduling.grant(free, queued.leases(), demands);
    demands = grants.demands();
    writes.append(state, grants.leases().stream()
        .<Event>map(l -> new HostLeased(l.hostId(), l.epoch(), l.experimentId())).toList());
    GroupCommit.Batch<SchedulerState, Event> batch = writes.take(state);
    List<Event> events = batch.events();
    List<Scheduling.Preemption> preemptions = preemptions(batch.after());
    if (events.isEmpty()) {
      batch.runAfter(state);
      preemptions.forEach(this::preempt);
      return Effect().none();
    }
    return Effect().persist(events).thenRun(s -> {
      batch.runAfter(s);
      long now = clock.millis();
      // Leases end only by LeaseReleased: forget exactly those hosts (a host re-leased in the
      // same batch gets its new start below).
      events.forEach(e -> {
        if (e instanceof LeaseReleased released && s.leases().leaseOf(released.hostId()).isEmpty()) {
          bootSince.remove(released.hostId());
        }
      });
      grants.leases().forEach(l -> bootSince.put(l.hostId(), now));
      grants.leases().forEach(l -> askForBlock(s, l));
      preemptions.forEach(this::preempt);
    });
  }

  /** Forgets preemptions whose lease is gone, then picks new ones. */
  private List<Scheduling.Preemption> preemptions(SchedulerState after) {
    preempting.values().removeIf(
        p -> !after.leases().isCurrent(p.victim().hostId(), p.victim().epoch()));
    Map<String, String> pending = new HashMap<>();
    preempting.forEach((host, p) -> pending.put(host, p.forExperiment()));
    var chosen = Scheduling.preemptions(fleet, after.leases(), after.marks(), demands, pending, bootSince);
    chosen.forEach(p -> preempting.put(p.victim().hostId(), p));
    return chosen;
  }

  private void preempt(Scheduling.Preemption p) {
    Lease victim = p.victim();
    context.getLog().info("preempting host {} (experiment {}, epoch {}) for experiment {}",
        victim.hostId(), victim.experimentId(), victim.epoch(), p.forExperiment());
    fleet.host(victim.hostId()).map(Fleet.Host::session).ifPresent(session -> session.tell(
        new StopBlock(victim.epoch(), true, "preempted by higher-priority experiment "
            + p.forExperiment())));
  }

  private void tellLeaseLost(Lease lease, String why) {
    var notice = new LeaseHolder.LeaseLost(lease.hostId(), lease.epoch(), why);
    demands.find(lease.experimentId()).ifPresentOrElse(d -> d.experiment().tell(notice),
        () -> heldNotices.computeIfAbsent(lease.experimentId(), id -> new ArrayList<>()).add(notice));
  }

  private void askForBlock(SchedulerState state, Lease lease) {
    HostCapabilities capabilities = fleet.host(lease.hostId()).orElseThrow().capabilities();
    Demand demand = demands.find(lease.experimentId()).orElseThrow();
    ActorRef<LeaseHolder.Message> experiment = demand.experiment();
    // A free host is a usable online one: when one matches, the scan of the fleet is not needed.
    boolean others = free.firstMatch(demand.selector(), Set.of(lease.hostId())) != null
        || Scheduling.otherHostsMatch(fleet, state.marks(), demand.selector(), lease.hostId());
    context.ask(
        LeaseHolder.PlanReply.class,
        experiment,
        PLAN_TIMEOUT,
        replyTo -> new LeaseHolder.PlanBlock(
            lease.hostId(), lease.epoch(), capabilities, others, replyTo),
        (reply, failure) -> new PlanAnswered(lease, reply));
  }
}
