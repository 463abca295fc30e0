package dev.abfleet.controller.build;

import dev.abfleet.controller.fleet.Fence;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.build.BuildEvent.AttemptStarted;
import dev.abfleet.controller.build.BuildEvent.BuildSubmitted;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.plan.BuildInputs;
import dev.abfleet.controller.plan.BuildJob;
import dev.abfleet.controller.schedule.LeaseHolder;
import dev.abfleet.controller.schedule.Scheduler;
import java.time.Clock;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * One kernel build on the fleet (a sharded, event-sourced entity keyed by the build id, the
 * digest of its inputs): asks the scheduler for a host that builds, runs one attempt per lease,
 * and ends BUILT or FAILED. A lost lease or an INFRA failure starts another attempt, on another
 * host when one matches; a failure of the user's input (SOURCE, PATCH, CONFIG, COMPILE) is final.
 */
public final class BuildEntity
    extends EventSourcedBehaviorWithEnforcedReplies<BuildEntity.Command, BuildEvent, BuildState> {

  public sealed interface Command extends CborSerializable
      permits Submit, Get, RecordReport, RecordProgress, PlanOnLease, LoseLease, Orphaned {}

  /** Queues the build, or finds the one of the same inputs; replies its {@link BuildView}. */
  public record Submit(BuildInputs inputs, ActorRef<BuildView> replyTo) implements Command {}

  /** Replies the {@link BuildView}; status NEW when nothing was submitted under this id. */
  public record Get(ActorRef<BuildView> replyTo) implements Command {}

  /** A worker's report of how an attempt ended; replies how it was {@link Recorded}. */
  public record RecordReport(String attemptId, String hostId, long epoch, BuildOutcome outcome,
      ActorRef<Recorded> replyTo) implements Command {}

  public enum Recorded implements CborSerializable { RECORDED, DUPLICATE, STALE }

  /** How the running attempt is going (kept in memory, never persisted). No reply. */
  public record RecordProgress(String attemptId, long epoch, BuildView.Progress progress) implements Command {}

  /** The scheduler's {@link LeaseHolder.PlanBlock}, through the adapter; replies a PlanReply. */
  private record PlanOnLease(LeaseHolder.PlanBlock request) implements Command {}

  /** The scheduler's {@link LeaseHolder.LeaseLost}, through the adapter. No reply. */
  private record LoseLease(LeaseHolder.LeaseLost notice) implements Command {}

  /** The controller restarted while the attempt ran: its lease belonged to the scheduler before. */
  private enum Orphaned implements Command { INSTANCE }

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "build");
  private static final String PRIORITY = "adhoc";

  public static Behavior<Command> create(String buildId, ActorRef<Scheduler.Command> scheduler, Clock clock) {
    return Behaviors.setup(context -> new BuildEntity(context, buildId, scheduler, clock));
  }

  private final ActorContext<Command> context;
  private final String buildId;
  private final ActorRef<Scheduler.Command> scheduler;
  private final Clock clock;
  private final ActorRef<LeaseHolder.Message> leaseHolder;
  private BuildView.Progress progress = BuildView.Progress.NONE;

  private BuildEntity(ActorContext<Command> context, String buildId, ActorRef<Scheduler.Command> scheduler,
      Clock clock) {
    super(PersistenceId.of(TYPE_KEY.name(), buildId));
    this.context = context;
    this.buildId = buildId;
    this.scheduler = scheduler;
    this.clock = clock;
    this.leaseHolder = context.messageAdapter(LeaseHolder.Message.class, BuildEntity::fromScheduler);
  }

  @Override
  public BuildState emptyState() {
    return BuildState.empty(buildId);
  }

  /**
   * A build that was running when the controller stopped starts its attempt again: its lease
   * belonged to the scheduler before the restart.
   */
  @Override
  public SignalHandler<BuildState> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.instance(), state -> {
          if (state.status() == BuildState.Status.BUILDING) {
            context.getSelf().tell(Orphaned.INSTANCE);
          } else if (state.status() == BuildState.Status.QUEUED) {
            requestHost(state);
          }
        })
        .build();
  }

  @Override
  public CommandHandlerWithReply<Command, BuildEvent, BuildState> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Submit.class, this::onSubmit)
        .onCommand(Get.class, (state, cmd) -> Effect().reply(cmd.replyTo(), view(state)))
        .onCommand(RecordReport.class, this::onReport)
        .onCommand(RecordProgress.class, this::onProgress)
        .onCommand(PlanOnLease.class, this::onPlan)
        .onCommand(LoseLease.class, this::onLeaseLost)
        .onCommand(Orphaned.class, this::onOrphaned)
        .build();
  }

  @Override
  public EventHandler<BuildState, BuildEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(BuildState::apply);
  }

  private ReplyEffect<BuildEvent, BuildState> onSubmit(BuildState state, Submit cmd) {
    if (state.status() != BuildState.Status.NEW) {
      return Effect().reply(cmd.replyTo(), view(state));
    }
    return Effect().persist(new BuildSubmitted(buildId, cmd.inputs(), clock.millis()))
        .thenRun(this::requestHost)
        .thenReply(cmd.replyTo(), this::view);
  }

  private ReplyEffect<BuildEvent, BuildState> onPlan(BuildState state, PlanOnLease wrapped) {
    LeaseHolder.PlanBlock plan = wrapped.request();
    if (state.status() != BuildState.Status.QUEUED || state.avoids(plan.hostId(), plan.otherHostsMatch())) {
      boolean elsewhere = state.status() == BuildState.Status.QUEUED;
      return Effect().reply(plan.replyTo(), new LeaseHolder.NoBlockNeeded(demandId(), elsewhere));
    }
    String attemptId = state.nextAttemptId();
    BuildJob job = new BuildJob(buildId, attemptId, plan.hostId(), plan.epoch(), state.inputs());
    context.getLog().info("build {}: attempt {} on host {} (lease epoch {})", buildId, attemptId,
        plan.hostId(), plan.epoch());
    progress = BuildView.Progress.NONE;
    return Effect().persist(new AttemptStarted(attemptId, plan.hostId(), plan.epoch(), clock.millis()))
        .thenReply(plan.replyTo(), s -> new LeaseHolder.BuildPlanned(job));
  }

  private ReplyEffect<BuildEvent, BuildState> onLeaseLost(BuildState state, LoseLease wrapped) {
    LeaseHolder.LeaseLost lost = wrapped.notice();
    var attempt = state.attempt();
    if (attempt == null || !attempt.hostId().equals(lost.hostId()) || !Fence.admits(attempt.epoch(), lost.epoch())) {
      return Effect().noReply();
    }
    String why = "lease lost on host " + lost.hostId() + ": " + lost.reason();
    context.getLog().warn("build {}: attempt {} {}", buildId, attempt.attemptId(), why);
    return Effect().persist(state.retryOrFail(why, clock.millis())).thenRun(this::afterChange).thenNoReply();
  }

  private ReplyEffect<BuildEvent, BuildState> onOrphaned(BuildState state, Orphaned cmd) {
    if (state.status() != BuildState.Status.BUILDING) {
      return Effect().noReply();
    }
    String why = "the controller restarted during attempt " + state.attempt().attemptId() + " on host "
        + state.attempt().hostId();
    return Effect().persist(state.retryOrFail(why, clock.millis(), false)).thenRun(this::afterChange).thenNoReply();
  }

  private ReplyEffect<BuildEvent, BuildState> onReport(BuildState state, RecordReport cmd) {
    if (!state.isCurrent(cmd.attemptId(), cmd.hostId(), cmd.epoch())) {
      boolean repeat = state.done() && cmd.attemptId().equals(lastAttemptId(state));
      return Effect().reply(cmd.replyTo(), repeat ? Recorded.DUPLICATE : Recorded.STALE);
    }
    return Effect().persist(state.afterReport(cmd.outcome(), clock.millis()))
        .thenRun(this::afterChange)
        .thenReply(cmd.replyTo(), s -> Recorded.RECORDED);
  }

  private ReplyEffect<BuildEvent, BuildState> onProgress(BuildState state, RecordProgress cmd) {
    var attempt = state.attempt();
    if (attempt != null && attempt.attemptId().equals(cmd.attemptId()) && Fence.admits(attempt.epoch(), cmd.epoch())) {
      progress = cmd.progress();
    }
    return Effect().noReply();
  }

  /** Done: the scheduler forgets the build; queued again: it asks for a host. */
  private void afterChange(BuildState state) {
    progress = BuildView.Progress.NONE;
    if (state.done()) {
      context.getLog().info("build {}: {}", buildId, state.status());
      scheduler.tell(new Scheduler.WithdrawDemand(demandId()));
    } else {
      requestHost(state);
    }
  }

  private void requestHost(BuildState state) {
    scheduler.tell(new Scheduler.RequestHosts(demandId(), HostSelector.forBuild(state.inputs().arch()),
        PRIORITY, leaseHolder, 1));
  }

  private String lastAttemptId(BuildState state) {
    return buildId.substring(0, Math.min(16, buildId.length())) + "-a" + state.attempts();
  }

  private BuildView view(BuildState state) {
    return new BuildView(state, state.status() == BuildState.Status.BUILDING ? progress : BuildView.Progress.NONE);
  }

  /** The scheduler's name for this build's demand (beside experiment ids). */
  private String demandId() {
    return "build-" + buildId;
  }

  private static Command fromScheduler(LeaseHolder.Message message) {
    if (message instanceof LeaseHolder.PlanBlock plan) {
      return new PlanOnLease(plan);
    }
    return new LoseLease((LeaseHolder.LeaseLost) message);
  }
}
