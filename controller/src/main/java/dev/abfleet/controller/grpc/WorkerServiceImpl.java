package dev.abfleet.controller.grpc;

import dev.abfleet.model.Limits;

import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.build.BuildView;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostNames;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.http.ControllerMetrics;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.security.Caller;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WorkerService.Connect: one HostSession actor per worker stream, on this node. A worker that
 * sends more than its message rate allows has its stream closed (RESOURCE_EXHAUSTED).
 *
 * <p>Backpressure: while the scheduler is behind ({@link SchedulerLag}), a run report is not
 * passed on but answered with ReportAck code RESOURCE_EXHAUSTED; the worker keeps it and sends it
 * again after a jittered backoff. A BlockFinished of a block with a report deferred is held here
 * until that report is taken, so the host is never freed before its reports count (the session
 * sends the scheduler BlockDone only after the block's reports).
 */
public final class WorkerServiceImpl implements WorkerServiceGrpc.AsyncService, io.grpc.BindableService {
  private static final Logger log = LoggerFactory.getLogger(WorkerServiceImpl.class);
  private final ActorSystem<?> system;
  private final ActorRef<Scheduler.Command> scheduler;
  private final Duration heartbeatInterval;
  private final Duration heartbeatTimeout;
  private final ControllerMetrics metrics;
  private final double messagesPerSecond;
  private final AtomicLong streams = new AtomicLong();
  private final BooleanSupplier schedulerBehind;

  public WorkerServiceImpl(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler,
      Duration heartbeatInterval, Duration heartbeatTimeout) {
    this(system, scheduler, heartbeatInterval, heartbeatTimeout, new ControllerMetrics(),
        Limits.defaults().workerMessagesPerSecond());
  }

  /**
   * @param metrics where refused reports and refused streams are counted
   * @param messagesPerSecond messages a worker may send per second (twice as many at once)
   */
  public WorkerServiceImpl(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler,
      Duration heartbeatInterval, Duration heartbeatTimeout, ControllerMetrics metrics,
      double messagesPerSecond) {
    this(system, scheduler, heartbeatInterval, heartbeatTimeout, metrics, messagesPerSecond,
        SchedulerLag.start(system, scheduler, metrics)::behind);
  }

  /** @param schedulerBehind true while run reports are to be deferred (see the class comment) */
  WorkerServiceImpl(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler,
      Duration heartbeatInterval, Duration heartbeatTimeout, ControllerMetrics metrics,
      double messagesPerSecond, BooleanSupplier schedulerBehind) {
    this.schedulerBehind = schedulerBehind;
    this.system = system;
    this.scheduler = scheduler;
    this.heartbeatInterval = heartbeatInterval;
    this.heartbeatTimeout = heartbeatTimeout;
    this.metrics = metrics;
    this.messagesPerSecond = messagesPerSecond;
  }

  /** Counters this service adds to; the authentication interceptor counts refused identities here. */
  public ControllerMetrics metrics() {
    return metrics;
  }

  /**
   * Requests that do not parse are answered INVALID_ARGUMENT (see {@link RequestParsing}); the
   * generated base class would make this method final, so the service interface is implemented.
   */
  @Override
  public io.grpc.ServerServiceDefinition bindService() {
    return RequestParsing.clear(WorkerServiceGrpc.bindService(this));
  }

  @Override
  public StreamObserver<WorkerMessage> connect(StreamObserver<ControllerMessage> responses) {
    WorkerStream stream = new WorkerStream(responses);
    // Under TLS the interceptor admits only workers with a certificate; it names their host.
    Caller caller = Caller.current();
    int burst = (int) Math.max(1, Math.ceil(2 * messagesPerSecond));
    TokenBucket messages = new TokenBucket(messagesPerSecond, burst, System::nanoTime);
    var requests = new StreamObserver<WorkerMessage>() {
      private volatile ActorRef<SessionMessage> session;
      private volatile String hostId;
      private volatile String arch = "";
      private volatile boolean rejected;
      private volatile boolean retriesDeferred;
      // gRPC delivers one stream's messages one at a time, so these need no lock.
      /** Run id -> block id of the reports deferred and not yet sent again. */
      private final Map<String, String> deferred = new HashMap<>();
      /** Block id -> its BlockFinished, held until the block's deferred reports are taken. */
      private final Map<String, WorkerMessage> heldFinishes = new HashMap<>();

      @Override
      public void onNext(WorkerMessage message) {
        if (rejected) {
          return;
        }
        stream.heard();
        if (session != null && stream.ended()) {
          // The session ended the stream and stops (heartbeats missed, a newer stream took
          // over): messages still in flight from the worker would only be dead letters. The
          // worker sends its unacknowledged reports again on its next stream.
          return;
        }
        if (!messages.tryTake()) {
          flooded();
          return;
        }
        if (session == null) {
          start(message);
          return;
        }
        switch (message.getKindCase()) {
          // stream.heard() above is all a heartbeat does: the session's timer reads the stream.
          case HEARTBEAT -> { }
          case RUN_STARTED -> metrics.bootStarted(stream.hypervisorOf(message.getRunStarted().getRunId()), arch);
          case RUN_RESULT, RUN_FAILURE -> report(message);
          case BLOCK_FINISHED -> {
            if (deferred.containsValue(message.getBlockFinished().getBlockId())) {
              heldFinishes.put(message.getBlockFinished().getBlockId(), message);
            } else {
              blockFinished(message);
            }
          }
          case BUILD_PROGRESS -> {
            var p = message.getBuildProgress();
            session.tell(new SessionBuilds.BuildProgressed(p.getAttemptId(), p.getLeaseEpoch(),
                new BuildView.Progress(p.getPhase(), p.getObjects(), p.getObjectsExpected())));
          }
          case BUILD_REPORT -> {
            var r = message.getBuildReport();
            session.tell(new SessionBuilds.BuildReported(r.getBuildId(), r.getAttemptId(), r.getLeaseEpoch(),
                BuildProtos.outcome(r)));
          }
          default -> { }
        }
      }

      /** A run report: passed on, or deferred while the scheduler is behind. */
      private void report(WorkerMessage message) {
        String runId = message.hasRunResult() ? message.getRunResult().getRunId() : message.getRunFailure().getRunId();
        String blockId = message.hasRunResult() ? message.getRunResult().getBlockId() : message.getRunFailure().getBlockId();
        if (retriesDeferred && schedulerBehind.getAsBoolean()) {
          deferred.put(runId, blockId);
          metrics.reportDeferred();
          stream.retryLater(runId);
          return;
        }
        deferred.remove(runId);
        switch (message.getKindCase()) {
          case RUN_RESULT -> {
            bootFinished(message.getRunResult().getRunId(), message.getRunResult().getTelemetry(), true);
            session.tell(new HostSession.RunReported(
              message.getRunResult().getExperimentId(), message.getRunResult().getBlockId(),
              ProtoToDomain.outcome(message.getRunResult(), hostId),
              message.getRunResult().getTelemetry().getHostId()));
          }
          case RUN_FAILURE -> {
            bootFinished(message.getRunFailure().getRunId(), message.getRunFailure().getTelemetry(), false);
            session.tell(new HostSession.RunReported(
              message.getRunFailure().getExperimentId(), message.getRunFailure().getBlockId(),
              ProtoToDomain.outcome(message.getRunFailure(), hostId),
              message.getRunFailure().getTelemetry().getHostId()));
          }
          default -> throw new IllegalStateException("not a run report: " + message.getKindCase());
        }
        WorkerMessage finish = heldFinishes.get(blockId);
        if (finish != null && !deferred.containsValue(blockId)) {
          heldFinishes.remove(blockId);
          blockFinished(finish);
        }
      }

      private void blockFinished(WorkerMessage message) {
        session.tell(new HostSession.WorkerFinishedBlock(
            message.getBlockFinished().getBlockId(), message.getBlockFinished().getLeaseEpoch()));
      }

      private void bootFinished(String runId, RunTelemetry t, boolean ok) {
        String hypervisor = t.getHypervisor().isEmpty() ? stream.hypervisorOf(runId) : t.getHypervisor();
        Duration took = t.getEndedAtMs() > t.getStartedAtMs() && t.getStartedAtMs() > 0
            ? Duration.ofMillis(t.getEndedAtMs() - t.getStartedAtMs())
            : t.getBootMs() + t.getRunMs() > 0 ? Duration.ofMillis(t.getBootMs() + t.getRunMs()) : null;
        metrics.bootFinished(hypervisor, arch, ok, took);
      }

      /** The worker does not read what it is sent: what it sends is ignored from now on. */
      void cutOff() {
        rejected = true;
        if (session != null) {
          session.tell(new HostSession.StreamEnded("does not read its stream"));
        }
      }

      /** The stream is closed and the session ends: the host goes offline, its lease ends. */
      private void flooded() {
        rejected = true;
        metrics.rateLimited("worker_message");
        Status status = Status.RESOURCE_EXHAUSTED.withDescription("worker stream"
            + (hostId == null ? "" : " of host " + hostId) + " sent more than " + burst
            + " messages at once (limit " + messagesPerSecond
            + "/s, controller.limits.worker_messages_per_second); reconnect and send less");
        // The status first: the session, once told, would complete the stream without it.
        stream.fail(status);
        if (session != null) {
          session.tell(new HostSession.StreamEnded("flooded its stream"));
        }
      }

      private void start(WorkerMessage message) {
        if (!message.hasHello() || message.getHello().getHostId().isEmpty()) {
          rejected = true;
          stream.fail(Status.INVALID_ARGUMENT.withDescription(
              "the first message must be Hello with a host_id; got " + message.getKindCase()));
          return;
        }
        var badId = HostNames.check("Hello.host_id", message.getHello().getHostId());
        if (badId.isPresent()) {
          rejected = true;
          stream.fail(Status.INVALID_ARGUMENT.withDescription(badId.get()
              + "; set the worker's --host-id"));
          return;
        }
        if (caller instanceof Caller.Worker certified
            && !certified.hostId().equals(message.getHello().getHostId())) {
          rejected = true;
          log.warn("rejected worker identity: certificate names host {} but Hello claims host {}",
              certified.hostId(), message.getHello().getHostId());
          metrics.rejectWorkerIdentity(message.getHello().getHostId());
          stream.fail(Status.PERMISSION_DENIED.withDescription("Hello claims host '"
              + message.getHello().getHostId() + "' but the worker certificate names host '"
              + certified.hostId() + "'; start the worker with --host-id " + certified.hostId()
              + " or with a certificate issued for its host id"));
          return;
        }
        HostCapabilities capabilities = ProtoToDomain.capabilities(message.getHello()).building(
            message.getHello().getBuild().getArchesList(), message.getHello().getBuild().getToolchain());
        hostId = capabilities.hostId();
        arch = message.getHello().getArch();
        retriesDeferred = message.getHello().getRetriesDeferredReports();
        String nodeName = system.address().toString();
        session = system.systemActorOf(
            HostSession.create(capabilities, stream, scheduler, ClusterSharding.get(system),
                heartbeatInterval, heartbeatTimeout, nodeName, metrics),
            "host-session-" + streams.incrementAndGet() + "-" + hostId.replaceAll("[^A-Za-z0-9_-]", "_"),
            Props.empty());
      }

      @Override
      public void onError(Throwable t) {
        if (session != null) {
          session.tell(new HostSession.StreamEnded("stream failed: " + Status.fromThrowable(t)));
        }
      }

      @Override
      public void onCompleted() {
        if (session != null) {
          session.tell(new HostSession.StreamEnded("the worker closed the stream"));
        } else {
          stream.complete();
        }
      }
    };
    stream.whenCutOff(requests::cutOff);
    return requests;
  }
}
