package dev.abfleet.controller.bisect;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.bisect.BisectEvent.BisectCancelled;
import dev.abfleet.controller.bisect.BisectEvent.BisectFailed;
import dev.abfleet.controller.bisect.BisectEvent.BisectStarted;
import dev.abfleet.controller.bisect.BisectEvent.ProbeFinished;
import dev.abfleet.controller.bisect.BisectEvent.ProbeSubmitted;
import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.experiment.ExperimentView;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
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
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * One bisect (a sharded, event-sourced entity): measures the endpoints, then runs the binary
 * search one probe at a time ({@link Bisection}, {@link ProbeRule}),
 * each probe ONE experiment submitted to the experiment entities under a deterministic id
 * ({@link BisectRequest#experimentId}), and follows it to its end. The probe is recorded before
 * its experiment is submitted, so after a restart the bisect submits the same spec under the
 * same id again, which the experiment answers as a repeat: no probe runs twice.
 */
public final class BisectEntity
    extends EventSourcedBehaviorWithEnforcedReplies<BisectEntity.Command, BisectEvent, BisectState> {

  public sealed interface Command extends CborSerializable
      permits Start, Get, Cancel, Advance, Poll, Submitted, Seen {}

  /** Replies Started, also for a repeat of the same request; an error names the bad field. */
  public record Start(BisectRequest request, ActorRef<StatusReply<Started>> replyTo) implements Command {}

  public record Started(String bisectId) implements CborSerializable {}

  /** Replies the state; status NEW when nothing was started under this id. */
  public record Get(ActorRef<BisectState> replyTo) implements Command {}

  /** Stops a running bisect and its probe's experiment; replies the state (unchanged when not running). */
  public record Cancel(String reason, ActorRef<BisectState> replyTo) implements Command {}

  /** Submit the next probe, or the one in flight again. */
  private record Advance(String why) implements Command {}

  /** Look at the probe's experiment. */
  private record Poll(String experimentId) implements Command {}

  /** @param refused the experiment rejected the spec (not worth retrying); else a timeout */
  private record Submitted(String experimentId, String error, boolean refused) implements Command {}

  /** @param view null when the experiment did not answer ({@code error}) */
  private record Seen(String experimentId, ExperimentView view, String error) implements Command {}

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "bisect");
  private static final String FOLLOW = "follow";
  /** How often a controller looks at a probe's experiment: a look is cheap, a probe takes seconds. */
  public static final Duration POLL = Duration.ofSeconds(1);

  /**
   * @param experiments the experiment entity of an id (sharding in a controller)
   * @param poll how often the probe's experiment is looked at
   * @param askTimeout how long an experiment may take to answer
   */
  public static Behavior<Command> create(String bisectId,
      Function<String, RecipientRef<ExperimentEntity.Command>> experiments, Duration poll,
      Duration askTimeout, Clock clock) {
    return Behaviors.setup(context -> Behaviors.withTimers(timers ->
        new BisectEntity(context, timers, bisectId, experiments, poll, askTimeout, clock)));
  }

  private final ActorContext<Command> context;
  private final TimerScheduler<Command> timers;
  private final String bisectId;
  private final Function<String, RecipientRef<ExperimentEntity.Command>> experiments;
  private final Duration poll;
  private final Duration askTimeout;
  private final Clock clock;

  private BisectEntity(ActorContext<Command> context, TimerScheduler<Command> timers, String bisectId,
      Function<String, RecipientRef<ExperimentEntity.Command>> experiments, Duration poll,
      Duration askTimeout, Clock clock) {
    super(PersistenceId.of(TYPE_KEY.name(), bisectId));
    this.context = context;
    this.timers = timers;
    this.bisectId = bisectId;
    this.experiments = experiments;
    this.poll = poll;
    this.askTimeout = askTimeout;
    this.clock = clock;
  }

  @Override
  public BisectState emptyState() {
    return BisectState.empty(bisectId);
  }

  @Override
  public CommandHandlerWithReply<Command, BisectEvent, BisectState> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Start.class, this::onStart)
        .onCommand(Get.class, (state, cmd) -> Effect().reply(cmd.replyTo(), state))
        .onCommand(Cancel.class, this::onCancel)
        .onCommand(Advance.class, this::onAdvance)
        .onCommand(Poll.class, this::onPoll)
        .onCommand(Submitted.class, this::onSubmitted)
        .onCommand(Seen.class, this::onSeen)
        .build();
  }

  @Override
  public EventHandler<BisectState, BisectEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(BisectState::apply);
  }

  @Override
  public SignalHandler<BisectState> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.instance(), state -> {
          if (state.running()) {
            context.getSelf().tell(new Advance("recovered"));
          }
        })
        .build();
  }

  private ReplyEffect<BisectEvent, BisectState> onStart(BisectState state, Start cmd) {
    if (state.status() != BisectState.Status.NEW) {
      return Effect().reply(cmd.replyTo(), state.request().equals(cmd.request())
          ? StatusReply.success(new Started(bisectId))
          : StatusReply.error("bisect '" + bisectId + "' already exists with other kernels or"
              + " settings; start it under a new id"));
    }
    var problems = cmd.request().problems();
    if (!problems.isEmpty()) {
      return Effect().reply(cmd.replyTo(), StatusReply.error(String.join("; ", problems)));
    }
    return Effect().persist(new BisectStarted(bisectId, cmd.request(), clock.millis()))
        .thenRun(s -> context.getSelf().tell(new Advance("started")))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(new Started(bisectId)));
  }

  private ReplyEffect<BisectEvent, BisectState> onCancel(BisectState state, Cancel cmd) {
    if (!state.running()) {
      return Effect().reply(cmd.replyTo(), state);
    }
    String reason = cmd.reason() == null || cmd.reason().isEmpty() ? "cancelled" : cmd.reason();
    BisectState.InFlight probe = state.inFlight();
    return Effect().persist(new BisectCancelled(reason))
        .thenRun(s -> {
          timers.cancel(FOLLOW);
          if (probe != null) {
            experiments.apply(probe.experimentId()).tell(new ExperimentEntity.Cancel(
                "bisect " + bisectId + " cancelled: " + reason, context.getSystem().ignoreRef()));
          }
        })
        .thenReply(cmd.replyTo(), s -> s);
  }

  private ReplyEffect<BisectEvent, BisectState> onAdvance(BisectState state, Advance cmd) {
    if (!state.running()) {
      return Effect().noReply();
    }
    if (state.inFlight() != null) {
      submit(state);
      return Effect().noReply();
    }
    int good = state.search().baseline();
    int probe = state.search().nextProbe().getAsInt();
    return Effect().persist(new ProbeSubmitted(good, probe, BisectRequest.experimentId(bisectId, good, probe)))
        .thenRun(this::submit)
        .thenNoReply();
  }

  /** Submits the probe in flight: a repeat of the same spec under the same id is harmless. */
  private void submit(BisectState state) {
    BisectState.InFlight probe = state.inFlight();
    var spec = state.request().probeSpec(probe.good(), probe.probe(),
        state.search().stepPolicy(state.request().policy()));
    context.askWithStatus(ExperimentEntity.Accepted.class, experiments.apply(probe.experimentId()),
        askTimeout, replyTo -> new ExperimentEntity.Submit(spec, replyTo),
        (accepted, failure) -> new Submitted(probe.experimentId(),
            failure == null ? "" : String.valueOf(failure.getMessage()),
            failure instanceof StatusReply.ErrorMessage));
  }

  private ReplyEffect<BisectEvent, BisectState> onSubmitted(BisectState state, Submitted cmd) {
    if (!following(state, cmd.experimentId())) {
      return Effect().noReply();
    }
    if (cmd.refused()) {
      return Effect().persist(new BisectFailed(probeName(state.inFlight()) + " was refused: "
          + cmd.error())).thenNoReply();
    }
    // Accepted: follow it. Not answered in time: submit again later.
    timers.startSingleTimer(FOLLOW, cmd.error().isEmpty()
        ? new Poll(cmd.experimentId()) : new Advance("submission unanswered"), poll);
    return Effect().noReply();
  }

  private ReplyEffect<BisectEvent, BisectState> onPoll(BisectState state, Poll cmd) {
    if (following(state, cmd.experimentId())) {
      context.ask(ExperimentView.class, experiments.apply(cmd.experimentId()), askTimeout,
          ExperimentEntity.Get::new, (view, failure) -> new Seen(cmd.experimentId(), view,
              failure == null ? "" : String.valueOf(failure.getMessage())));
    }
    return Effect().noReply();
  }

  private ReplyEffect<BisectEvent, BisectState> onSeen(BisectState state, Seen cmd) {
    if (!following(state, cmd.experimentId())) {
      return Effect().noReply();
    }
    if (cmd.view() == null || (cmd.view().known() && !cmd.view().terminal())) {
      timers.startSingleTimer(FOLLOW, new Poll(cmd.experimentId()), poll);
      return Effect().noReply();
    }
    if (!cmd.view().known()) {
      context.getSelf().tell(new Advance("experiment unknown"));
      return Effect().noReply();
    }
    ExperimentView view = cmd.view();
    BisectState.InFlight probe = state.inFlight();
    if (!view.state().equals("completed")) {
      return Effect().persist(new BisectFailed(probeName(probe) + " " + view.state() + ": "
          + view.message() + "; the bisect stops here (probes so far are above)")).thenNoReply();
    }
    BisectRequest r = state.request();
    ProbeResult result = state.search().judge(
        ProbeExperiments.finished(view, BisectRequest.probeArm(probe.probe()), r.metric()), r.policy());
    return Effect().persist(new ProbeFinished(result))
        .thenRun(s -> {
          if (s.running()) {
            context.getSelf().tell(new Advance("probe finished"));
          }
        })
        .thenNoReply();
  }

  private static boolean following(BisectState state, String experimentId) {
    return state.running() && state.inFlight() != null
        && state.inFlight().experimentId().equals(experimentId);
  }

  private static String probeName(BisectState.InFlight p) {
    return "probe #" + p.probe() + " vs #" + p.good() + ": experiment " + p.experimentId();
  }
}
