package dev.abfleet.controller.grpc;

import dev.abfleet.controller.fleet.Fence;

import dev.abfleet.controller.experiment.ExperimentEntity;
import dev.abfleet.controller.experiment.RecordResult;
import dev.abfleet.controller.experiment.RunOutcome;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.http.ControllerMetrics;
import dev.abfleet.controller.schedule.AssignBlock;
import dev.abfleet.controller.schedule.AssignBuild;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.schedule.IntroduceHost;
import dev.abfleet.controller.schedule.StopBlock;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.schedule.SessionReplaced;
import io.grpc.Status;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;

/**
 * One worker's stream on this node: registers the host with the scheduler, forwards blocks to
 * the worker and its reports to experiments, and ends the host's presence when the stream ends
 * or heartbeats stop.
 */
final class HostSession {

  /**
   * The worker reported a boot of a block of {@code experimentId}; {@code reportedHostId} is the
   * host id inside the report (empty = not stated). No reply.
   */
  record RunReported(String experimentId, String blockId, RunOutcome outcome,
      String reportedHostId) implements SessionMessage {}

  /** The worker finished a block; the host is free. No reply. */
  record WorkerFinishedBlock(String blockId, long epoch) implements SessionMessage {}

  /**
   * The experiment answered a RecordRun (result null = no answer in time: asked again, up to
   * {@link #REPORT_ATTEMPTS} times); the worker is told it may forget the report, and the
   * scheduler learns whether the boot was an INFRA failure.
   */
  private record ReportHandled(String blockId, String experimentId, RunOutcome outcome,
      RecordResult result, int attempt) implements SessionMessage {}

  /** The stream completed or failed. No reply. */
  record StreamEnded(String why) implements SessionMessage {}

  private enum HeartbeatMissed implements SessionMessage { INSTANCE }

  private static final Duration REPORT_TIMEOUT = Duration.ofSeconds(30);
  /**
   * A report sent while its experiment's node was dying is lost with that node; asked again
   * (recording is idempotent per run id) it reaches the experiment on its new node. The worker
   * itself re-sends only on a new stream, and this stream may be healthy.
   */
  static final int REPORT_ATTEMPTS = 5;

  static Behavior<SessionMessage> create(
      HostCapabilities capabilities,
      WorkerStream stream,
      ActorRef<Scheduler.Command> scheduler,
      ClusterSharding sharding,
      Duration heartbeatInterval,
      Duration heartbeatTimeout,
      String nodeName,
      ControllerMetrics metrics) {
    return Behaviors.setup(context -> Behaviors.withTimers(timers -> {
      var session = new HostSession(context, timers, capabilities, stream, scheduler, sharding,
          heartbeatTimeout, metrics);
      metrics.hostConnected();
      scheduler.tell(new Scheduler.RegisterHost(capabilities, context.getSelf()));
      SessionDirectory.of(context.getSystem()).tell(new SessionDirectory.Add(context.getSelf(),
          capabilities.hostId(), stream::silentNanos));
      stream.welcome(heartbeatInterval.toMillis(), nodeName);
      session.armHeartbeatTimer(heartbeatTimeout);
      return session.active(Blocks.none());
    }));
  }

  private final ActorContext<SessionMessage> context;
  private final TimerScheduler<SessionMessage> timers;
  private final HostCapabilities capabilities;
  private final WorkerStream stream;
  private final ActorRef<Scheduler.Command> scheduler;
  private final ClusterSharding sharding;
  private final Duration heartbeatTimeout;
  private final ControllerMetrics metrics;
  // Block id -> its reports still with their experiment. The scheduler hears that a block is
  // done only after them, so an INFRA failure counts toward the host's health before the host
  // can be leased again.
  private final Map<String, Integer> reportsInFlight = new HashMap<>();
  private final Map<String, Scheduler.BlockDone> doneAfterReports = new HashMap<>();
  private long refused;
  private final SessionBuilds builds;

  private HostSession(ActorContext<SessionMessage> context, TimerScheduler<SessionMessage> timers,
      HostCapabilities capabilities, WorkerStream stream, ActorRef<Scheduler.Command> scheduler,
      ClusterSharding sharding, Duration heartbeatTimeout, ControllerMetrics metrics) {
    this.context = context;
    this.timers = timers;
    this.capabilities = capabilities;
    this.stream = stream;
    this.scheduler = scheduler;
    this.sharding = sharding;
    this.heartbeatTimeout = heartbeatTimeout;
    this.metrics = metrics;
    this.builds = new SessionBuilds(context, capabilities.hostId(), stream, scheduler, sharding);
  }

  /**
   * Blocks this session assigned and not yet finished, and the stops asked for.
   *
   * @param blocks block id -> block
   * @param stops lease epoch -> the stop asked for it (kept until a block of that epoch ends)
   * @param preempted block ids stopped at a boot boundary for a higher-priority experiment
   */
  private record Blocks(Map<String, Block> blocks, Map<Long, StopBlock> stops, Set<String> preempted) {
    Blocks {
      blocks = Map.copyOf(blocks);
      stops = Map.copyOf(stops);
      preempted = Set.copyOf(preempted);
    }

    static Blocks none() {
      return new Blocks(Map.of(), Map.of(), Set.of());
    }
  }

  private Behavior<SessionMessage> active(Blocks state) {
    return Behaviors.receive(SessionMessage.class)
        .onMessage(RunReported.class, m -> onRunReported(state, m))
        .onMessage(ReportHandled.class, this::onReportHandled)
        .onMessage(WorkerFinishedBlock.class, m -> onBlockFinished(state, m))
        .onMessage(AssignBlock.class, m -> onAssign(state, m))
        .onMessage(StopBlock.class, m -> onStop(state, m))
        .onMessage(AssignBuild.class, this::onAssignBuild)
        .onMessage(SessionBuilds.BuildProgressed.class, this::onBuildProgress)
        .onMessage(SessionBuilds.BuildReported.class, this::onBuildReported)
        .onMessage(SessionBuilds.BuildReportHandled.class, this::onBuildReportHandled)
        .onMessage(SessionReplaced.class, m -> onReplaced())
        .onMessage(IntroduceHost.class, this::onIntroduce)
        .onMessage(StreamEnded.class, m -> disconnect(m.why(), null))
        .onMessageEquals(HeartbeatMissed.INSTANCE, this::onHeartbeatMissed)
        .onSignal(PostStop.class, signal -> onStopped())
        .build();
  }

  /** However the session ends (the worker left, a newer stream took over, the node stops). */
  private Behavior<SessionMessage> onStopped() {
    metrics.hostDisconnected();
    return Behaviors.same();
  }

  /**
   * The timer ran out, but the worker may have spoken while this actor was behind: only silence
   * on the transport for the whole timeout ends the session.
   */
  private Behavior<SessionMessage> onHeartbeatMissed() {
    Duration wait = stillHeard(Duration.ofNanos(stream.silentNanos()), heartbeatTimeout);
    if (!wait.isZero()) {
      armHeartbeatTimer(wait);
      return Behaviors.same();
    }
    return disconnect("no heartbeat for " + heartbeatTimeout.toMillis() + " ms",
        Status.UNAVAILABLE.withDescription("no heartbeat for " + heartbeatTimeout.toMillis() + " ms; reconnect"));
  }

  /**
   * How much longer to wait for a worker silent for {@code silent}: the rest of the timeout, or
   * zero once it has been silent for all of it.
   */
  static Duration stillHeard(Duration silent, Duration timeout) {
    return silent.compareTo(timeout) >= 0 ? Duration.ZERO : timeout.minus(silent);
  }

  /** Only a report for a block of this stream, under its lease, reaches the experiment. */
  private Behavior<SessionMessage> onRunReported(Blocks state, RunReported m) {
    Block block = state.blocks().get(m.blockId());
    var refusal = ReportCheck.refusal(block, capabilities.hostId(), m.experimentId(),
        m.outcome().runId(), m.outcome().leaseEpoch(), m.reportedHostId());
    if (refusal.isPresent()) {
      reject(m.outcome().runId(), m.blockId(), refusal.get());
      return Behaviors.same();
    }
    reportsInFlight.merge(m.blockId(), 1, Integer::sum);
    askToRecord(block.experimentId(), m.blockId(), m.outcome(), 1);
    return Behaviors.same();
  }

  /** Counted and acknowledged as refused, so an honest worker stops sending it; never recorded. */
  private void reject(String runId, String blockId, String reason) {
    // The first few in full; then one line in a thousand, so a forging worker cannot flood the log.
    if (++refused <= 10 || refused % 1000 == 0) {
      context.getLog().warn("host {}: report of run {} for block {} refused: {} ({} refused on this stream)",
          capabilities.hostId(), runId, blockId, reason, refused);
    }
    metrics.rejectReport(capabilities.hostId(), reason);
    scheduler.tell(new Scheduler.ReportRejected(capabilities.hostId(), reason));
    stream.refused(runId, reason);
  }

  private void askToRecord(String experimentId, String blockId, RunOutcome outcome, int attempt) {
    context.ask(RecordResult.class,
        sharding.entityRefFor(ExperimentEntity.TYPE_KEY, experimentId),
        REPORT_TIMEOUT,
        replyTo -> new ExperimentEntity.RecordRun(outcome, blockId, replyTo),
        (result, failure) -> new ReportHandled(blockId, experimentId, outcome,
            failure == null ? result : null, attempt));
  }

  private Behavior<SessionMessage> onIntroduce(IntroduceHost m) {
    context.getLog().info("host {}: registering again ({})", capabilities.hostId(), m.why());
    scheduler.tell(new Scheduler.RegisterHost(capabilities, context.getSelf()));
    return Behaviors.same();
  }

  /** Without an answer the worker keeps the report and sends it again on its next stream. */
  private Behavior<SessionMessage> onReportHandled(ReportHandled m) {
    String runId = m.outcome().runId();
    if (m.result() == null && m.attempt() < REPORT_ATTEMPTS) {
      context.getLog().warn("host {}: run {} not acknowledged by its experiment in time;"
          + " asking again", capabilities.hostId(), runId);
      askToRecord(m.experimentId(), m.blockId(), m.outcome(), m.attempt() + 1);
      return Behaviors.same();
    }
    if (m.result() == null) {
      context.getLog().warn("host {}: run {} not acknowledged by its experiment after {} tries",
          capabilities.hostId(), runId, REPORT_ATTEMPTS);
    } else if (m.result() == RecordResult.REJECTED_STALE) {
      reject(runId, m.blockId(), ReportCheck.REJECTED_BY_EXPERIMENT);
    } else {
      stream.ack(runId);
      // Only reports counted now say something about the host; duplicates and stale ones do not.
      if (m.result() == RecordResult.RECORDED || m.result() == RecordResult.ABANDONED) {
        scheduler.tell(new Scheduler.RunHandled(capabilities.hostId(),
            m.outcome().status() == RunOutcome.Status.INFRA, m.outcome().message(),
            interfered(m.outcome())));
      }
    }
    if (reportsInFlight.merge(m.blockId(), -1, Integer::sum) <= 0) {
      reportsInFlight.remove(m.blockId());
      Scheduler.BlockDone done = doneAfterReports.remove(m.blockId());
      if (done != null) {
        scheduler.tell(done);
      }
    }
    return Behaviors.same();
  }

  private Behavior<SessionMessage> onBlockFinished(Blocks state, WorkerFinishedBlock m) {
    Block block = state.blocks().get(m.blockId());
    if (block != null) {
      sharding.entityRefFor(ExperimentEntity.TYPE_KEY, block.experimentId())
          .tell(new ExperimentEntity.BlockFinished(m.blockId(), m.epoch(),
              state.preempted().contains(m.blockId())));
    }
    Scheduler.BlockDone done = new Scheduler.BlockDone(capabilities.hostId(), m.blockId(), m.epoch());
    if (reportsInFlight.containsKey(m.blockId())) {
      doneAfterReports.put(m.blockId(), done);
    } else {
      scheduler.tell(done);
    }
    Map<String, Block> blocks = new HashMap<>(state.blocks());
    blocks.remove(m.blockId());
    Map<Long, StopBlock> stops = new HashMap<>(state.stops());
    stops.remove(m.epoch());
    Set<String> preempted = new HashSet<>(state.preempted());
    preempted.remove(m.blockId());
    return active(new Blocks(blocks, stops, preempted));
  }

  private Behavior<SessionMessage> onAssign(Blocks state, AssignBlock m) {
    Block block = m.block();
    stream.assign(block);
    Map<String, Block> blocks = new HashMap<>(state.blocks());
    blocks.put(block.blockId(), block);
    Blocks next = new Blocks(blocks, state.stops(), state.preempted());
    StopBlock stop = state.stops().get(block.leaseEpoch());
    return stop == null ? active(next) : active(stopped(next, block, stop));
  }

  private Behavior<SessionMessage> onAssignBuild(AssignBuild m) {
    builds.assign(m.job());
    return Behaviors.same();
  }

  private Behavior<SessionMessage> onBuildProgress(SessionBuilds.BuildProgressed m) {
    builds.progress(m);
    return Behaviors.same();
  }

  private Behavior<SessionMessage> onBuildReported(SessionBuilds.BuildReported m) {
    builds.report(m).ifPresent(why -> reject(m.attemptId(), m.buildId(), why));
    return Behaviors.same();
  }

  private Behavior<SessionMessage> onBuildReportHandled(SessionBuilds.BuildReportHandled m) {
    builds.handled(m);
    return Behaviors.same();
  }

  /** Sends Cancel for the blocks (and builds) under the stopped epoch; a block assigned later is stopped then. */
  private Behavior<SessionMessage> onStop(Blocks state, StopBlock m) {
    if (builds.stop(m)) {
      return Behaviors.same();
    }
    Map<Long, StopBlock> stops = new HashMap<>(state.stops());
    stops.put(m.epoch(), m);
    Blocks next = new Blocks(state.blocks(), stops, state.preempted());
    for (Block block : state.blocks().values()) {
      if (Fence.admits(block.leaseEpoch(), m.epoch())) {
        next = stopped(next, block, m);
      }
    }
    return active(next);
  }

  private Blocks stopped(Blocks state, Block block, StopBlock stop) {
    context.getLog().info("host {}: stopping block {} ({}): {}", capabilities.hostId(),
        block.blockId(), stop.afterCurrentBoot() ? "after the current boot" : "now", stop.reason());
    stream.cancel(block.blockId(), stop.reason(), stop.afterCurrentBoot());
    if (!stop.afterCurrentBoot()) {
      return state;
    }
    Set<String> preempted = new HashSet<>(state.preempted());
    preempted.add(block.blockId());
    return new Blocks(state.blocks(), state.stops(), preempted);
  }

  private Behavior<SessionMessage> onReplaced() {
    context.getLog().info("host {}: a newer connection took over", capabilities.hostId());
    stream.fail(Status.ABORTED.withDescription(
        "host " + capabilities.hostId() + " connected again on another stream"));
    return Behaviors.stopped();
  }

  private Behavior<SessionMessage> disconnect(String why, Status status) {
    context.getLog().info("host {} disconnected: {}", capabilities.hostId(), why);
    scheduler.tell(new Scheduler.HostDisconnected(capabilities.hostId(), context.getSelf()));
    if (status == null) {
      stream.complete();
    } else {
      stream.fail(status);
    }
    return Behaviors.stopped();
  }

  /**
   * Looks at the stream's silence after {@code wait} plus up to a fifth of the timeout, at random:
   * hosts whose heartbeats a controller stall held up together then time out spread over that
   * fifth instead of in one tick, and reconnect spread. Heartbeats themselves never reach this
   * actor (the stream notes the time of every message): at 10,000 hosts that would be 10,000
   * messages and timer restarts a second for nothing; the timer fires about once per timeout.
   */
  private void armHeartbeatTimer(Duration wait) {
    long jitter = java.util.concurrent.ThreadLocalRandom.current().nextLong(heartbeatTimeout.toMillis() / 5 + 1);
    timers.startSingleTimer(HeartbeatMissed.INSTANCE, HeartbeatMissed.INSTANCE, wait.plusMillis(jitter));
  }

  /** The worker marked the boot's window interfered (the host busy with other processes). */
  private static boolean interfered(RunOutcome outcome) {
    return outcome.guest() != null && outcome.guest().host() != null && outcome.guest().host().interfered();
  }
}
