package dev.abfleet.worker.link;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.BuildAssignment;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import dev.abfleet.proto.fleet.v1.ReportAck;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's side of {@code WorkerService.Connect}. Owns the stream, heartbeats, reconnects
 * with jittered backoff and an {@link Outbox}: reports written while the stream is down are kept
 * and sent, in order, once the controller has welcomed the worker again. A run report
 * (RunResult, RunFailure) is kept until the controller acknowledges it (ReportAck) and is sent
 * again on the next stream if the one it went out on fails first: delivery is at-least-once,
 * and the controller records each run id once (and rejects epochs no longer in force), so a
 * report sent twice is harmless. A report too large to send, or one the controller refuses, is
 * shrunk or dropped rather than re-sent for ever ahead of the others (see {@link Outbox}). A
 * report the controller defers because it is behind (ReportAck code RESOURCE_EXHAUSTED) goes
 * back to the head of the outbox, and nothing more is sent from it until a jittered, growing
 * delay has passed (heartbeats go on); Hello says the link does so.
 * Running VMs is not its business: assignments and cancels go to the {@link Handler}.
 */
public final class ControllerLink implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ControllerLink.class);

  /**
   * Largest message the link sends: half the controller's limit. Reports within the guest
   * output caps stay near 1 MiB; anything larger is a defect, and shrinking it costs one run.
   */
  static final int MAX_REPORT_BYTES = ProtocolConstants.MAX_MESSAGE_BYTES_VALUE / 2;

  /** Receives what the controller asks for; called on gRPC threads, must not block. */
  public interface Handler {
    void onAssignment(BlockAssignment assignment);

    void onCancel(Cancel cancel);

    /** A kernel build under a lease of this host; a worker that builds nothing ignores it. */
    default void onBuild(BuildAssignment assignment) {}

    /**
     * The stream ended: the controller has released this host's lease (it does so for a stream
     * that ends), so work that reports only at its end (a kernel build) is moot.
     */
    default void onStreamEnded(String why) {}
  }

  private final WorkerServiceGrpc.WorkerServiceStub stub;
  private final Supplier<Hello> hello;
  private final Supplier<String> runningRunId;
  private final Handler handler;
  private final Backoff backoff;
  /** Delays before a deferred report is sent again; reset by a report taken. */
  private final Backoff retryBackoff;
  private final ScheduledExecutorService timer;

  private final Object lock = new Object();
  private final Outbox outbox = new Outbox(MAX_REPORT_BYTES);
  private LinkState state = LinkState.BACKOFF;
  private ClientCallStreamObserver<WorkerMessage> stream;
  private long generation;
  private ScheduledFuture<?> heartbeat;
  /** True while the outbox waits out a deferral: {@link #drainLocked} sends nothing. */
  private boolean holding;

  public ControllerLink(
      Channel channel,
      Supplier<Hello> hello,
      Supplier<String> runningRunId,
      Handler handler,
      Backoff backoff,
      ScheduledExecutorService timer) {
    this.stub = WorkerServiceGrpc.newStub(channel);
    this.hello = hello;
    this.runningRunId = runningRunId;
    this.handler = handler;
    this.backoff = backoff;
    this.retryBackoff = backoff.another();
    this.timer = timer;
  }

  /** Opens the first stream; later ones open by themselves after failures. */
  public void start() {
    connect();
  }

  public LinkState state() {
    synchronized (lock) {
      return state;
    }
  }

  /** Queues a report; it goes out now if connected, else after the next Welcome. */
  public void send(WorkerMessage message) {
    synchronized (lock) {
      if (state == LinkState.CLOSED) {
        log.warn("link closed; dropping {}", message.getKindCase());
        return;
      }
      outbox.add(message);
      drainLocked();
    }
  }

  /** Messages not yet handed to a connected stream, plus run reports not yet acknowledged. */
  public int pending() {
    synchronized (lock) {
      return outbox.pending();
    }
  }

  /** The report is handled, or refused for good (sending it again cannot change that). */
  private void onAck(ReportAck ack) {
    if (ack.getCode() == Status.Code.RESOURCE_EXHAUSTED.value()) {
      onDeferred(ack.getRunId());
      return;
    }
    if (!ack.getRefused().isEmpty()) {
      log.warn("the controller refused the report of run {} ({}); it is not recorded", ack.getRunId(),
          ack.getRefused());
    }
    synchronized (lock) {
      outbox.acknowledged(ack.getRunId());
      retryBackoff.reset();
      drainLocked();
    }
  }

  /** The controller is behind: the report waits in the outbox, and the outbox holds for a while. */
  private void onDeferred(String runId) {
    Duration delay;
    synchronized (lock) {
      if (!outbox.deferred(runId) || holding || state == LinkState.CLOSED) {
        return;
      }
      holding = true;
      delay = retryBackoff.next(Status.Code.RESOURCE_EXHAUSTED);
    }
    log.info("the controller is behind and deferred the report of run {}; sending again in {} ms",
        runId, delay.toMillis());
    timer.schedule(() -> {
      synchronized (lock) {
        holding = false;
        drainLocked();
      }
    }, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    ClientCallStreamObserver<WorkerMessage> toClose;
    synchronized (lock) {
      state = LinkState.CLOSED;
      cancelHeartbeatLocked();
      toClose = stream;
      stream = null;
    }
    if (toClose != null) {
      try {
        toClose.onCompleted();
      } catch (RuntimeException e) {
        log.debug("closing stream", e);
      }
    }
  }

  private void connect() {
    long myGeneration;
    synchronized (lock) {
      if (state == LinkState.CLOSED) {
        return;
      }
      state = LinkState.CONNECTING;
      myGeneration = ++generation;
    }
    var requests = (ClientCallStreamObserver<WorkerMessage>) stub.connect(new Responses(myGeneration));
    synchronized (lock) {
      if (myGeneration != generation || state != LinkState.CONNECTING) {
        return;
      }
      stream = requests;
      requests.onNext(WorkerMessage.newBuilder().setHello(
          hello.get().toBuilder().setRetriesDeferredReports(true)).build());
    }
  }

  private void drainLocked() {
    // Re-checked for every message: sending can end the stream (in-process transports call back at once).
    while (state == LinkState.CONNECTED && stream != null && !holding) {
      Optional<WorkerMessage> m = outbox.poll();
      if (m.isEmpty()) {
        return;
      }
      stream.onNext(m.get());
    }
  }

  private void onWelcome(long gen, int heartbeatMillis) {
    synchronized (lock) {
      if (gen != generation || state == LinkState.CLOSED) {
        return;
      }
      state = LinkState.CONNECTED;
      backoff.reset();
      cancelHeartbeatLocked();
      long every = Math.max(100, heartbeatMillis);
      heartbeat = timer.scheduleAtFixedRate(() -> beat(gen), every, every, TimeUnit.MILLISECONDS);
      drainLocked();
    }
    log.info("connected to controller");
  }

  private void beat(long gen) {
    synchronized (lock) {
      if (gen != generation || state != LinkState.CONNECTED || stream == null) {
        return;
      }
      String running = runningRunId.get();
      stream.onNext(
          WorkerMessage.newBuilder()
              .setHeartbeat(Heartbeat.newBuilder().setRunningRunId(running == null ? "" : running))
              .build());
    }
  }

  private void onStreamEnded(long gen, Status status) {
    Duration delay;
    synchronized (lock) {
      if (gen != generation || state == LinkState.CLOSED) {
        return;
      }
      cancelHeartbeatLocked();
      stream = null;
      state = LinkState.BACKOFF;
      delay = backoff.next(status.getCode());
      // Reports not acknowledged may have been lost with the stream: they go first next time.
      outbox.streamEnded(status);
    }
    log.warn(
        "controller stream ended ({}: {}); reconnecting in {} ms",
        status.getCode(),
        status.getDescription(),
        delay.toMillis());
    handler.onStreamEnded(status.getCode() + ": " + status.getDescription());
    timer.schedule(this::connect, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void cancelHeartbeatLocked() {
    if (heartbeat != null) {
      heartbeat.cancel(false);
      heartbeat = null;
    }
  }

  /** One stream attempt; callbacks from an older attempt are ignored by generation. */
  private final class Responses
      implements ClientResponseObserver<WorkerMessage, ControllerMessage> {
    private final long gen;

    Responses(long gen) {
      this.gen = gen;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<WorkerMessage> requestStream) {
      // Hello is sent by connect() once the call has started.
    }

    @Override
    public void onNext(ControllerMessage message) {
      switch (message.getKindCase()) {
        case WELCOME -> onWelcome(gen, message.getWelcome().getHeartbeatIntervalMs());
        case ASSIGNMENT -> handler.onAssignment(message.getAssignment());
        case CANCEL -> handler.onCancel(message.getCancel());
        case BUILD_ASSIGNMENT -> handler.onBuild(message.getBuildAssignment());
        case REPORT_ACK -> onAck(message.getReportAck());
        default -> log.warn("ignoring unknown controller message {}", message.getKindCase());
      }
    }

    @Override
    public void onError(Throwable t) {
      onStreamEnded(gen, Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      onStreamEnded(gen, Status.UNAVAILABLE.withDescription("controller closed the stream"));
    }
  }
}
