package dev.abfleet.controller.experiment;

import dev.abfleet.controller.fleet.Fence;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.experiment.ExperimentEvent.BlockAbandoned;
import dev.abfleet.controller.experiment.ExperimentEvent.PairCompleted;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentCancelled;
import dev.abfleet.controller.experiment.ExperimentEvent.ExperimentSubmitted;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.schedule.LeaseHolder;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.store.GroupCommit;
import dev.abfleet.controller.store.SnapshotPacing;
import dev.abfleet.stats.verdict.Assessment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * One A/B experiment (a sharded, event-sourced entity): plans blocks of paired boots for the
 * hosts the scheduler leases to it, records their outcomes once each, and completes after the
 * policy's number of pairs.
 */
public final class ExperimentEntity
    extends EventSourcedBehaviorWithEnforcedReplies<ExperimentEntity.Command, ExperimentEvent, ExperimentState> {

  public sealed interface Command extends CborSerializable
      permits Submit, Get, Cancel, PlanOnLease, RecordRun, LoseLease, BlockFinished, Wake, Flush,
          Watch {}

  /** Replies Accepted, also for a repeat of the same spec; an error names the bad field. */
  public record Submit(ExperimentSpec spec, ActorRef<StatusReply<Accepted>> replyTo)
      implements Command {}

  public record Accepted(String experimentId, long seed) implements CborSerializable {}

  /** Replies the view; state "unknown" when nothing was submitted under this id. */
  public record Get(ActorRef<ExperimentView> replyTo) implements Command {}

  /** Stops a running experiment and replies the view (unchanged when not running). */
  public record Cancel(String reason, ActorRef<ExperimentView> replyTo) implements Command {}

  /**
   * The scheduler's {@link LeaseHolder.PlanBlock} (a host is leased to this experiment), as the
   * entity's message adapter delivers it; replies a {@link LeaseHolder.PlanReply}.
   */
  public record PlanOnLease(LeaseHolder.PlanBlock request) implements Command {}

  /** A boot's report; replies a RecordResult unless {@code replyTo} is null. */
  public record RecordRun(RunOutcome outcome, String blockId, ActorRef<RecordResult> replyTo)
      implements Command {}

  /** The scheduler's {@link LeaseHolder.LeaseLost}, through the adapter; abandons its block. No reply. */
  public record LoseLease(LeaseHolder.LeaseLost notice) implements Command {}

  /**
   * The worker says the block is over; abandons it if a boot went unreported. No reply.
   *
   * @param preempted the block was stopped at a boot boundary for a higher-priority experiment:
   *     its pair runs again later and the abandonment is not held against the pair
   */
  public record BlockFinished(String blockId, long epoch, boolean preempted) implements Command {}

  private record Wake(String why) implements Command {}

  /** Writes the events decided since the last write (group commit); sent to itself only. */
  private enum Flush implements Command { INSTANCE }

  /** The watchdog's tick: looks for a stall (see {@link Watchdog}); sent to itself only. */
  private enum Watch implements Command { INSTANCE }

  /**
   * How a running experiment notices that it stopped moving. The scheduler keeps what experiments
   * want in memory only, so a request sent to a scheduler that then died (a singleton failover)
   * is gone, as is a lease-lost notice for an experiment the new scheduler has not heard from.
   * An experiment that has written no event for {@code stallAfter} therefore asks for hosts
   * again: a scheduler incarnation learns every running experiment's demand within that time.
   * It also counts a stall ({@code onStall}) when a pair of it was waiting for a host meanwhile.
   *
   * @param stallAfter quiet time after which the experiment asks again; checked every third of it
   * @param onStall called once per stall (the controller's abfleet_experiment_stalls_total)
   */
  public record Watchdog(Duration stallAfter, Runnable onStall) {
    /** 15 s: a few times a sim pair, well inside a block's lease timeout and a worker's reconnect. */
    public static final Duration STALL_AFTER = Duration.ofSeconds(15);

    public Watchdog {
      if (stallAfter.isNegative() || stallAfter.isZero()) {
        throw new IllegalArgumentException("stallAfter " + stallAfter + ": use a positive duration, e.g. 15s");
      }
    }

    /** {@link #STALL_AFTER}, counting stalls nowhere. */
    public static Watchdog defaults() {
      return new Watchdog(STALL_AFTER, () -> { });
    }
  }

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "experiment");

  /** An experiment that never snapshots (recovery replays every event). */
  public static Behavior<Command> create(String experimentId, ActorRef<Scheduler.Command> scheduler) {
    return create(experimentId, scheduler, 0);
  }

  /**
   * @param snapshotEvery save a snapshot after at least this many events and at least as many as
   *     the experiment has recorded boots ({@link SnapshotPacing}); 0 = never
   */
  public static Behavior<Command> create(
      String experimentId, ActorRef<Scheduler.Command> scheduler, int snapshotEvery) {
    return create(experimentId, scheduler, snapshotEvery, Watchdog.defaults());
  }

  /** As above, noticing stalls with {@code watchdog}. */
  public static Behavior<Command> create(String experimentId, ActorRef<Scheduler.Command> scheduler,
      int snapshotEvery, Watchdog watchdog) {
    return Behaviors.setup(context -> Behaviors.withTimers(timers ->
        new ExperimentEntity(context, timers, experimentId, scheduler, snapshotEvery, watchdog)));
  }

  private final ActorContext<Command> context;
  private final TimerScheduler<Command> timers;
  private final Watchdog watchdog;
  // System.nanoTime() of the last event written (or of the start): the watchdog's measure of progress.
  private long lastProgress = System.nanoTime();
  private final String experimentId;
  private final ActorRef<Scheduler.Command> scheduler;
  // What the scheduler holds for this entity: its LeaseHolder messages arrive as PlanOnLease / LoseLease.
  private final ActorRef<LeaseHolder.Message> leaseHolder;
  private final SnapshotPacing snapshots;
  // The last view built and the state it shows (states are immutable: identity is enough).
  private ExperimentState viewOf;
  private ExperimentView view;
  // The verdicts and the completed pairs they were computed from (identity).
  private Map<Integer, List<RunOutcome>> assessmentOf;
  private Assessment assessment = Assessment.EMPTY;
  // Group commit: the events decided since the last write and what to do once they are written
  // (replies above all).
  private final GroupCommit<ExperimentState, ExperimentEvent> writes =
      new GroupCommit<>("experiment", ExperimentState::apply);
  // The persisted state the command being handled was given (the group commit chains onto it).
  private ExperimentState persisted;
  /** System.nanoTime() from which a running view may assess again; due at once when the entity starts. */
  private long assessNotBefore = System.nanoTime();
  private final CatalogTable catalog;
  // The summary last written to the catalogue, its time 0 (written again only when it changes).
  private ExperimentCatalog.Summary recorded;

  private ExperimentEntity(ActorContext<Command> context, TimerScheduler<Command> timers,
      String experimentId, ActorRef<Scheduler.Command> scheduler, int snapshotEvery, Watchdog watchdog) {
    super(PersistenceId.of(TYPE_KEY.name(), experimentId));
    this.context = context;
    this.timers = timers;
    this.watchdog = watchdog;
    this.experimentId = experimentId;
    this.scheduler = scheduler;
    this.leaseHolder = context.messageAdapter(LeaseHolder.Message.class, ExperimentEntity::fromScheduler);
    this.snapshots = new SnapshotPacing(snapshotEvery);
    this.catalog = CatalogTable.get(context.getSystem());
  }

  /** Events stay in the journal (they are the experiment's record); snapshots only shorten recovery. */
  @Override
  public RetentionCriteria retentionCriteria() {
    return snapshots.retention();
  }

  /**
   * A snapshot writes every recorded boot's samples: paced by their count, so an experiment's
   * snapshots add up to a few times its final size rather than growing with its square.
   */
  @Override
  public boolean shouldSnapshot(ExperimentState state, ExperimentEvent event, long sequenceNr) {
    return snapshots.due(sequenceNr, state.recordedRunIds().size());
  }

  @Override
  public ExperimentState emptyState() {
    return ExperimentState.empty(experimentId);
  }

  @Override
  public CommandHandlerWithReply<Command, ExperimentEvent, ExperimentState> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Submit.class, (state, cmd) -> onSubmit(current(state), cmd))
        .onCommand(Get.class, (state, cmd) -> Effect().reply(cmd.replyTo(), view(state)))
        .onCommand(Cancel.class, (state, cmd) -> onCancel(current(state), cmd))
        .onCommand(PlanOnLease.class, (state, cmd) -> onPlanBlock(current(state), cmd))
        .onCommand(RecordRun.class, (state, cmd) -> onRecordRun(current(state), cmd))
        .onCommand(LoseLease.class, (state, cmd) -> onLeaseLost(current(state), cmd))
        .onCommand(BlockFinished.class, (state, cmd) -> onBlockFinished(current(state), cmd))
        .onCommand(Wake.class, (state, cmd) -> onWake(current(state), cmd))
        .onCommand(Flush.class, (state, cmd) -> onFlush(state))
        .onCommand(Watch.class, (state, cmd) -> onWatch(current(state)))
        .build();
  }

  @Override
  public EventHandler<ExperimentState, ExperimentEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(writes::written);
  }

  @Override
  public SignalHandler<ExperimentState> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.instance(), state -> {
          record(state);
          context.getSelf().tell(new Wake("recovered"));
          if (state.running()) {
            startWatchdog();
          }
        })
        .build();
  }

  /**
   * The least time between two computations of a running experiment's verdicts for its view.
   * Watchers poll every 100 ms and a pair completes every few ms on a large fleet, while a
   * verdict (a host bootstrap over every completed pair) takes milliseconds to tens of them on
   * this actor, which also plans the blocks hosts wait for. A view's verdicts are therefore up
   * to this old (or twenty times their last computation, when that is longer, or longer still
   * while the node's other running experiments used its {@link AssessBudget}) while the
   * experiment runs; a finished experiment's are always those of all its pairs.
   */
  static final Duration ASSESS_EVERY = Duration.ofSeconds(1);

  /**
   * The view of {@code state}, built once per state: watchers ask often, and a view recomputes
   * every verdict (a host bootstrap with several hosts), which would otherwise hold up the
   * block planning this actor also does. See {@link #ASSESS_EVERY}.
   */
  private ExperimentView view(ExperimentState state) {
    boolean running = state.status() == ExperimentState.Status.RUNNING;
    boolean stale = state.pairs() != assessmentOf && state.status() != ExperimentState.Status.NEW;
    long now = System.nanoTime();
    boolean due = !running || (now - assessNotBefore >= 0 && AssessBudget.NODE.available(now));
    if (state != viewOf || (stale && due)) {
      if (state.status() == ExperimentState.Status.NEW) {
        assessment = Assessment.EMPTY;
        assessmentOf = null;
      } else if (stale && due) {
        long start = System.nanoTime();
        assessment = ReportInputs.assess(state.spec(), state.completedPairs(), state.seed());
        assessmentOf = state.pairs();
        long end = System.nanoTime();
        long took = end - start;
        assessNotBefore = end + Math.max(ASSESS_EVERY.toNanos(), 20 * took);
        AssessBudget.NODE.spent(took, end);
      }
      view = ExperimentView.of(state, assessment);
      viewOf = state;
    }
    return view;
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> onSubmit(ExperimentState state, Submit cmd) {
    if (state.status() != ExperimentState.Status.NEW) {
      if (state.spec().equals(cmd.spec())) {
        return reply(cmd.replyTo(), StatusReply.success(new Accepted(experimentId, state.seed())));
      }
      return reply(cmd.replyTo(), StatusReply.error("experiment '" + experimentId
          + "' already exists with a different spec; submit it under a new id"));
    }
    List<String> problems = SpecValidator.validate(cmd.spec());
    if (!problems.isEmpty()) {
      return reply(cmd.replyTo(), StatusReply.error(String.join("; ", problems)));
    }
    long seed = cmd.spec().policy().seed() != 0 ? cmd.spec().policy().seed() : drawSeed();
    return write(List.of(new ExperimentSubmitted(experimentId, cmd.spec(), seed)), s -> {
      requestHosts(s);
      startWatchdog();
      cmd.replyTo().tell(StatusReply.success(new Accepted(experimentId, seed)));
    });
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> onCancel(ExperimentState state, Cancel cmd) {
    if (!state.running()) {
      return reply(cmd.replyTo(), ExperimentView.of(state));
    }
    String reason = cmd.reason() == null || cmd.reason().isEmpty() ? "cancelled" : cmd.reason();
    return write(List.of(new ExperimentCancelled(reason)),
        s -> cmd.replyTo().tell(ExperimentView.of(s)));
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> onPlanBlock(ExperimentState state, PlanOnLease wrapped) {
    LeaseHolder.PlanBlock cmd = wrapped.request();
    String hostClass = state.running() ? HostClassKey.planned(state.spec(), cmd.capabilities()) : "";
    var pair = state.running() ? state.nextPair(cmd.hostId(), cmd.otherHostsMatch(), hostClass)
        : java.util.OptionalInt.empty();
    if (pair.isEmpty()) {
      boolean waiting = state.running() && state.nextPair().isPresent();
      return reply(cmd.replyTo(), new LeaseHolder.NoBlockNeeded(experimentId, waiting));
    }
    String hypervisor = state.spec().selector().hypervisorFor(cmd.capabilities());
    Block block = Decisions.planBlock(state, cmd.hostId(), cmd.epoch(), pair.getAsInt(), hypervisor);
    int attempt = state.attempts().getOrDefault(pair.getAsInt(), 0);
    String facts = HostClassKey.facts(state.spec().policy().classBy(), cmd.capabilities(), hypervisor);
    return write(List.of(Decisions.started(block, attempt, hostClass, facts)),
        s -> cmd.replyTo().tell(new LeaseHolder.BlockPlanned(block)));
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> onRecordRun(ExperimentState state, RecordRun cmd) {
    Decisions.Decision decision = Decisions.recordRun(state, cmd.outcome(), cmd.blockId());
    if (decision.events().isEmpty()) {
      return cmd.replyTo() == null ? Effect().noReply() : reply(cmd.replyTo(), decision.result());
    }
    return write(decision.events(), s -> {
      if (cmd.replyTo() != null) {
        cmd.replyTo().tell(decision.result());
      }
    });
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> onLeaseLost(ExperimentState state, LoseLease wrapped) {
    LeaseHolder.LeaseLost cmd = wrapped.notice();
    var blocks = state.blocksOn(cmd.hostId(), cmd.epoch());
    if (!state.running() || blocks.isEmpty()) {
      return Effect().noReply();
    }
    // The host or the controller failed the block, not the kernels: not charged to the pair.
    return write(Decisions.abandonLost(state, blocks, "lease lost: " + cmd.reason()), s -> { });
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> onBlockFinished(ExperimentState state, BlockFinished cmd) {
    InFlightBlock block = state.inFlight().get(cmd.blockId());
    if (!state.running() || block == null || !Fence.admits(block.epoch(), cmd.epoch()) || block.complete()) {
      return Effect().noReply();
    }
    if (cmd.preempted()) {
      return abandon(state, List.of(block), Decisions.PREEMPTED, false);
    }
    return abandon(state, List.of(block),
        "host " + block.hostId() + " finished the block without reporting every boot", true);
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> onWake(ExperimentState state, Wake cmd) {
    if (!state.running()) {
      return Effect().noReply();
    }
    if (state.inFlight().isEmpty()) {
      return write(List.of(), this::requestHosts);
    }
    // Blocks in flight before a restart lost their leases with the old controller.
    return write(Decisions.abandonLost(state, List.copyOf(state.inFlight().values()),
        "controller restarted while the block was running"), s -> { });
  }

  /**
   * Asks for hosts again when the experiment wrote nothing for the watchdog's time (see
   * {@link Watchdog}); a stall is counted when a pair was waiting for a host all along.
   */
  private ReplyEffect<ExperimentEvent, ExperimentState> onWatch(ExperimentState state) {
    if (!state.running()) {
      timers.cancel(Watch.INSTANCE);
      return Effect().noReply();
    }
    long quiet = System.nanoTime() - lastProgress;
    if (quiet < watchdog.stallAfter().toNanos()) {
      return Effect().noReply();
    }
    lastProgress = System.nanoTime();
    if (state.nextPair().isPresent()) {
      watchdog.onStall().run();
      context.getLog().info("experiment {} made no progress for {} s with {} of {} pairs done and"
          + " a pair waiting for a host: asking the scheduler for hosts again", experimentId,
          java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(quiet), state.pairs().size(),
          state.pairsWanted());
    }
    return write(List.of(), this::requestHosts);
  }

  private void startWatchdog() {
    Duration every = watchdog.stallAfter().dividedBy(3);
    timers.startTimerWithFixedDelay(Watch.INSTANCE, Watch.INSTANCE,
        every.isZero() ? watchdog.stallAfter() : every);
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> abandon(
      ExperimentState state, List<InFlightBlock> blocks, String reason, boolean charged) {
    return write(Decisions.abandon(state, blocks, reason, charged), s -> { });
  }

  /** The persisted {@code state} with the events waiting for the next write applied. */
  private ExperimentState current(ExperimentState state) {
    persisted = state;
    return writes.current(state);
  }

  /**
   * Queues {@code events} (decided against {@link #current}) for the next write and runs
   * {@code then} once they are written: a burst of reports and block requests from many hosts
   * costs one journal write, not one each in turn, and each host's answer waits for one write
   * instead of a queue of them. Whoever is answered learns only what is durable.
   */
  private ReplyEffect<ExperimentEvent, ExperimentState> write(
      List<ExperimentEvent> events, Consumer<ExperimentState> then) {
    if (writes.queue(persisted, events, then)) {
      context.getSelf().tell(Flush.INSTANCE);
    }
    return Effect().noReply();
  }

  /** Answers now, or after the next write when the answer was read from events not yet written. */
  private <T> ReplyEffect<ExperimentEvent, ExperimentState> reply(ActorRef<T> replyTo, T message) {
    return writes.then(s -> replyTo.tell(message)) ? Effect().noReply() : Effect().reply(replyTo, message);
  }

  private ReplyEffect<ExperimentEvent, ExperimentState> onFlush(ExperimentState state) {
    GroupCommit.Batch<ExperimentState, ExperimentEvent> batch = writes.take(state);
    List<ExperimentEvent> events = batch.events();
    if (events.isEmpty()) {
      batch.runAfter(state);
      return Effect().noReply();
    }
    if (events.stream().anyMatch(e -> !(e instanceof ExperimentEvent.RunRejected))) {
      // A stream of stale reports is no progress.
      lastProgress = System.nanoTime();
    }
    return Effect().persist(events).thenRun(s -> {
      record(s);
      batch.runAfter(s);
      followUp(events, s);
    }).thenNoReply();
  }

  /** Writes the listing's row of {@code state} when it changed (a submitted experiment only). */
  private void record(ExperimentState state) {
    if (state.spec() == null) {
      return;
    }
    // Compared without a time; the time written is the submission time when this is the row's
    // first write, and later writes keep the row's.
    ExperimentCatalog.Summary listed = ExperimentCatalog.summary(state, 0);
    if (!listed.equals(recorded)) {
      catalog.record(ExperimentCatalog.summary(state, System.currentTimeMillis()));
      recorded = listed;
    }
  }

  /** Asks for hosts again after an abandoned block; withdraws demand once finished. */
  private void followUp(List<ExperimentEvent> events, ExperimentState state) {
    if (!state.running()) {
      scheduler.tell(new Scheduler.WithdrawDemand(experimentId));
      if (events.stream().anyMatch(e -> e instanceof ExperimentEvent.ExperimentCompleted)) {
        scheduler.tell(new Scheduler.NoiseObserved(experimentId,
            PairNoise.residualsByHost(state.spec(), state.completedPairs())));
      }
    } else if (events.stream().anyMatch(e -> e instanceof BlockAbandoned || e instanceof PairCompleted)) {
      // Abandoned: the pair needs a host again. Completed: the scheduler's cap of open pairs shrinks.
      requestHosts(state);
    }
  }

  private void requestHosts(ExperimentState state) {
    scheduler.tell(new Scheduler.RequestHosts(experimentId, state.spec().selector(),
        state.spec().priority(), leaseHolder, Math.max(1, state.pairsWanted() - state.pairs().size())));
  }

  private static Command fromScheduler(LeaseHolder.Message message) {
    if (message instanceof LeaseHolder.PlanBlock plan) {
      return new PlanOnLease(plan);
    }
    return new LoseLease((LeaseHolder.LeaseLost) message);
  }

  private static long drawSeed() {
    long seed = new SplittableRandom().nextLong();
    return seed == 0 ? 1 : seed;
  }
}
