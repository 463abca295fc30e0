package dev.abfleet.controller.nightly;

import dev.abfleet.model.NightlySchedule;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
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
 * Fires nightly schedules at their cron times and keeps their history (a cluster singleton,
 * event-sourced). A run: find its kernels and store them, record {@link NightlyEvent.RunStarted}
 * (with its deterministic experiment id), submit the experiment, follow it to a terminal state
 * and record {@link NightlyEvent.RunFinished}. A restarted controller follows its started runs
 * again under the same ids, so none is submitted twice.
 *
 * <p>Fire times that pass while the controller is down are skipped, as cron does: after a start
 * the next fire time of each schedule is the first one after now. The clock is looked at every
 * tick (about a second), so a step of the system clock is noticed at once.
 */
public final class Nightly
    extends EventSourcedBehaviorWithEnforcedReplies<Nightly.Command, NightlyEvent, NightlyState> {

  public sealed interface Command extends CborSerializable
      permits Trigger, ListSchedules, GetRuns, GetRun, Import, DecideRun, Tick, Started, RunFailed, Submitted, Polled {}

  /**
   * Runs the schedule now, due this minute; replies the run's experiment id (the same one for a
   * repeat in that minute), an error for an unknown schedule.
   */
  public record Trigger(String schedule, ActorRef<StatusReply<String>> replyTo) implements Command {}

  /** Replies {@link Schedules}. */
  public record ListSchedules(ActorRef<Schedules> replyTo) implements Command {}

  public record Schedules(List<ScheduleView> schedules) implements CborSerializable {}

  /**
   * @param nextFire ISO-8601 instant of the next fire time; empty when it never fires
   * @param lastRun the most recent finished run; null when none
   * @param running experiment ids of runs started and not finished
   */
  public record ScheduleView(String name, String cron, String zone, String nextFire, boolean simulation,
      RunRecord lastRun, List<String> running) implements CborSerializable {}

  /** Replies the schedule's finished runs in due order; an error when the schedule is unknown and has none. */
  public record GetRuns(String schedule, ActorRef<StatusReply<Runs>> replyTo) implements Command {}

  /**
   * @param minChange the schedule's {@code min_change} (relative); 0 = none, or a schedule known
   *     only from imported runs
   */
  public record Runs(List<RunRecord> runs, double minChange) implements CborSerializable {}

  /** Replies the run with this experiment id, as far as it got. */
  public record GetRun(String experimentId, ActorRef<RunStatus> replyTo) implements Command {}

  /**
   * @param state "unknown" (no such run), "running" or "finished"
   * @param run the finished run; null otherwise
   */
  public record RunStatus(String state, RunRecord run) implements CborSerializable {}

  /** Records runs of an old history file; replies how many were new and how many known (by experiment id). */
  public record Import(List<RunRecord> runs, ActorRef<Imported> replyTo) implements Command {}

  public record Imported(int added, int skipped) implements CborSerializable {}

  /**
   * An operator accepts ({@code accept}) or rejects a held run; replies {@link RunDecision}:
   * the run as decided, or why not (unknown run, or a run that is not held).
   *
   * @param reason the operator's words; may be empty
   */
  public record DecideRun(String experimentId, boolean accept, String reason, ActorRef<RunDecision> replyTo)
      implements Command {}

  /**
   * @param outcome "decided", "unknown" (no finished run by that id) or "not_held"
   * @param run the run as it is now (decided, or as it was when not held); null when unknown
   * @param problem what was wrong and the fix; empty when decided
   */
  public record RunDecision(String outcome, RunRecord run, String problem) implements CborSerializable {}

  private record Tick() implements Command {}

  private record Started(NightlyEvent.RunStarted run) implements Command {}

  private record RunFailed(RunRecord run) implements Command {}

  private record Submitted(String experimentId) implements Command {}

  private record Polled(String experimentId, Experiment experiment, Throwable failure) implements Command {}

  /** Persistence id of the one Nightly actor. */
  public static final String PERSISTENCE_ID = "nightly";

  /**
   * @param tick how often due schedules and followed experiments are looked at (1 s in production)
   * @param snapshotEvery save a snapshot every this many events; 0 = never
   */
  static Behavior<Command> create(List<NightlySchedule> schedules, RunPreparation preparation,
      Experiments experiments, AaNoise aaNoise, Clock clock, Duration tick, int snapshotEvery) {
    return Behaviors.setup(context -> Behaviors.withTimers(timers -> new Nightly(context, timers,
        schedules, preparation, experiments, aaNoise, clock, tick, snapshotEvery)));
  }

  /** The controller's Nightly over its artifact store. */
  public static Behavior<Command> create(NightlySettings settings,
      dev.abfleet.controller.artifact.ArtifactStore store, Experiments experiments, int snapshotEvery) {
    return create(settings.schedules(), new RunPreparation(settings.configDir(), store, settings.preparer()),
        experiments, settings.aaNoise(), settings.clock(), Duration.ofSeconds(1), snapshotEvery);
  }

  private final ActorContext<Command> context;
  private final TimerScheduler<Command> timers;
  private final Map<String, NightlySchedule> schedules = new java.util.LinkedHashMap<>();
  private final RunPreparation preparation;
  private final Experiments experiments;
  private final AaNoise aaNoise;
  private final Clock clock;
  private final Duration tick;
  private final int snapshotEvery;
  private final Executor blocking;
  // In memory: rebuilt after a restart from the clock and the journal.
  private final Map<String, Instant> nextDue = new HashMap<>();
  private final Set<String> resolving = new HashSet<>();
  private final Set<String> submitting = new HashSet<>();
  private final Set<String> polling = new HashSet<>();

  private Nightly(ActorContext<Command> context, TimerScheduler<Command> timers, List<NightlySchedule> schedules,
      RunPreparation preparation, Experiments experiments, AaNoise aaNoise, Clock clock, Duration tick,
      int snapshotEvery) {
    super(PersistenceId.ofUniqueId(PERSISTENCE_ID));
    this.context = context;
    this.timers = timers;
    schedules.forEach(s -> this.schedules.put(s.name(), s));
    this.preparation = preparation;
    this.experiments = experiments;
    this.aaNoise = aaNoise;
    this.clock = clock;
    this.tick = tick;
    this.snapshotEvery = snapshotEvery;
    this.blocking = context.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return snapshotEvery > 0 ? RetentionCriteria.snapshotEvery(snapshotEvery, 2) : RetentionCriteria.disabled();
  }

  @Override
  public NightlyState emptyState() {
    return NightlyState.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, NightlyEvent, NightlyState> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Trigger.class, this::onTrigger)
        .onCommand(ListSchedules.class, (state, cmd) -> Effect().reply(cmd.replyTo(),
            NightlyViews.schedules(state, schedules.values(), nextDue)))
        .onCommand(GetRuns.class, this::onGetRuns)
        .onCommand(GetRun.class, (state, cmd) -> Effect().reply(cmd.replyTo(),
            // A run whose kernels are being found is under way, though not recorded yet.
            resolving.contains(cmd.experimentId()) ? new RunStatus("running", null)
                : NightlyViews.run(state, cmd.experimentId())))
        .onCommand(Import.class, this::onImport)
        .onCommand(DecideRun.class, this::onDecideRun)
        .onCommand(Tick.class, this::onTick)
        .onCommand(Started.class, this::onStarted)
        .onCommand(RunFailed.class, this::onRunFailed)
        .onCommand(Submitted.class, this::onSubmitted)
        .onCommand(Polled.class, this::onPolled)
        .build();
  }

  @Override
  public EventHandler<NightlyState, NightlyEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(NightlyState::apply);
  }

  @Override
  public SignalHandler<NightlyState> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.instance(), state -> {
          Instant now = clock.instant();
          schedules.values().forEach(s -> planNext(s, now));
          timers.startTimerWithFixedDelay("tick", new Tick(), tick);
        })
        .build();
  }

  private ReplyEffect<NightlyEvent, NightlyState> onTrigger(NightlyState state, Trigger cmd) {
    NightlySchedule s = schedules.get(cmd.schedule());
    if (s == null) {
      return Effect().reply(cmd.replyTo(), StatusReply.error("no schedule '" + cmd.schedule()
          + "' on this controller; it runs: " + (schedules.isEmpty() ? "none (fleet.yaml has no schedules:)"
              : String.join(", ", schedules.keySet()))));
    }
    Instant due = clock.instant().truncatedTo(ChronoUnit.MINUTES);
    return Effect().none().thenRun(st -> fire(st, s, due))
        .thenReply(cmd.replyTo(), st -> StatusReply.success(NightlyRuns.experimentId(s.name(), due)));
  }

  private ReplyEffect<NightlyEvent, NightlyState> onGetRuns(NightlyState state, GetRuns cmd) {
    if (!schedules.containsKey(cmd.schedule()) && state.runs(cmd.schedule()).isEmpty()) {
      List<String> known = new ArrayList<>(schedules.keySet());
      state.finished().keySet().stream().filter(n -> !known.contains(n)).sorted().forEach(known::add);
      return Effect().reply(cmd.replyTo(), StatusReply.error("no schedule '" + cmd.schedule()
          + "' and no runs of it; known: " + (known.isEmpty() ? "none" : String.join(", ", known))));
    }
    return Effect().reply(cmd.replyTo(), StatusReply.success(new Runs(state.runs(cmd.schedule()),
        schedules.containsKey(cmd.schedule()) ? schedules.get(cmd.schedule()).minChange() : 0)));
  }

  private ReplyEffect<NightlyEvent, NightlyState> onImport(NightlyState state, Import cmd) {
    Set<String> seen = new HashSet<>();
    List<RunRecord> added = cmd.runs().stream()
        .filter(r -> !state.knows(r.experiment()) && seen.add(r.experiment())).toList();
    Imported reply = new Imported(added.size(), cmd.runs().size() - added.size());
    return added.isEmpty() ? Effect().reply(cmd.replyTo(), reply)
        : Effect().persist(new NightlyEvent.RunsImported(added)).thenReply(cmd.replyTo(), st -> reply);
  }

  private ReplyEffect<NightlyEvent, NightlyState> onDecideRun(NightlyState state, DecideRun cmd) {
    RunDecision refusal = NightlyViews.refusal(state, cmd.experimentId(), resolving);
    if (refusal != null) {
      return Effect().reply(cmd.replyTo(), refusal);
    }
    String reason = cmd.reason().isBlank() ? (cmd.accept() ? "accepted" : "rejected") + " by an operator"
        : cmd.reason().strip();
    return Effect().persist(new NightlyEvent.RunDecided(cmd.experimentId(), cmd.accept(), reason, clock.millis()))
        .thenReply(cmd.replyTo(), st -> new RunDecision("decided", st.run(cmd.experimentId()).orElseThrow(), ""));
  }

  private ReplyEffect<NightlyEvent, NightlyState> onTick(NightlyState state, Tick cmd) {
    Instant now = clock.instant();
    for (NightlySchedule s : schedules.values()) {
      Instant due = nextDue.get(s.name());
      if (due != null && !due.isAfter(now)) {
        fire(state, s, due);
        planNext(s, now);
      }
    }
    state.started().keySet().stream()
        .filter(id -> !submitting.contains(id) && !polling.contains(id))
        .forEach(this::poll);
    return Effect().noReply();
  }

  private ReplyEffect<NightlyEvent, NightlyState> onStarted(NightlyState state, Started cmd) {
    return Effect().persist(cmd.run()).thenRun(st -> {
      resolving.remove(cmd.run().experimentId());
      submit(cmd.run());
    }).thenNoReply();
  }

  private ReplyEffect<NightlyEvent, NightlyState> onRunFailed(NightlyState state, RunFailed cmd) {
    context.getLog().warn("nightly run {} failed: {}", cmd.run().experiment(), cmd.run().message());
    return Effect().persist(new NightlyEvent.RunFinished(NightlyRuns.notCompleted(cmd.run(), clock.millis())))
        .thenRun(st -> {
          resolving.remove(cmd.run().experiment());
          submitting.remove(cmd.run().experiment());
        }).thenNoReply();
  }

  private ReplyEffect<NightlyEvent, NightlyState> onSubmitted(NightlyState state, Submitted cmd) {
    submitting.remove(cmd.experimentId());
    return Effect().noReply();
  }

  private ReplyEffect<NightlyEvent, NightlyState> onPolled(NightlyState state, Polled cmd) {
    polling.remove(cmd.experimentId());
    NightlyEvent.RunStarted started = state.started().get(cmd.experimentId());
    if (started == null) {
      return Effect().noReply();
    }
    if (cmd.failure() != null) {
      context.getLog().debug("nightly: cannot look at {} yet: {}", cmd.experimentId(), cmd.failure().toString());
      return Effect().noReply();
    }
    String experimentState = cmd.experiment().getState();
    if (experimentState.equals("unknown")) {
      // Started, then the controller stopped before the experiment was recorded: submit it now.
      submit(started);
      return Effect().noReply();
    }
    if (!Set.of("completed", "failed", "cancelled").contains(experimentState)) {
      return Effect().noReply();
    }
    RunRecord done = NightlyRuns.record(started, cmd.experiment(), clock.millis());
    context.getLog().info("nightly run {} {}{}, {}: {}", done.experiment(), done.state(),
        done.overall().isEmpty() ? "" : ", overall " + done.overall(), done.decision(), done.decisionReason());
    NightlySchedule s = schedules.get(started.schedule());
    return Effect().persist(new NightlyEvent.RunFinished(done)).thenRun(st -> {
      if (s != null && s.aa()) {
        recordNoise(s, cmd.experiment(), Instant.parse(started.due()));
      }
    }).thenNoReply();
  }

  private void recordNoise(NightlySchedule s, Experiment done, Instant due) {
    var log = context.getLog();
    CompletableFuture.runAsync(() -> aaNoise.record(s.name(), done, due), blocking).whenComplete((ok, failure) -> {
      if (failure != null) {
        log.warn("nightly: the A/A noise of run {} was not recorded: {}", done.getExperimentId(), message(failure));
      }
    });
  }

  /** Starts the run of {@code s} due at {@code due}, unless it is known or on its way. */
  private void fire(NightlyState state, NightlySchedule s, Instant due) {
    String id = NightlyRuns.experimentId(s.name(), due);
    if (state.knows(id) || !resolving.add(id)) {
      return;
    }
    var lastAccepted = state.lastAccepted(s.name());
    context.getLog().info("nightly: {} due {}: run {}", s.name(), due, id);
    context.pipeToSelf(CompletableFuture.supplyAsync(() -> preparation.start(s, due, id, lastAccepted), blocking),
        (started, failure) -> started != null ? new Started(started)
            : new RunFailed(RunRecord.failed(s.name(), due.toString(), id, message(failure), s.simulation())));
  }

  private void submit(NightlyEvent.RunStarted run) {
    NightlySchedule s = schedules.get(run.schedule());
    if (s == null || !submitting.add(run.experimentId())) {
      return;
    }
    context.pipeToSelf(CompletableFuture.supplyAsync(() -> preparation.spec(s, run), blocking)
            .thenCompose(spec -> experiments.submit(run.experimentId(), spec)),
        (id, failure) -> failure == null ? new Submitted(run.experimentId())
            : new RunFailed(new RunRecord(run.schedule(), run.due(), run.experimentId(), "failed", run.baseline(),
                run.candidate(), List.of(), "", false, message(failure), run.simulation())));
  }

  private void poll(String experimentId) {
    polling.add(experimentId);
    context.pipeToSelf(experiments.get(experimentId),
        (e, failure) -> new Polled(experimentId, e, failure));
  }

  private void planNext(NightlySchedule s, Instant after) {
    s.cron().next(after.atZone(s.zone())).ifPresentOrElse(
        t -> nextDue.put(s.name(), t.toInstant()), () -> nextDue.remove(s.name()));
  }

  static String message(Throwable failure) {
    Throwable t = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
