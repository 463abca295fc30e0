package dev.abfleet.controller.grpc;

import dev.abfleet.controller.plan.Block;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.ReportAck;
import dev.abfleet.proto.fleet.v1.Welcome;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * The controller's side of one worker stream. StreamObserver is not thread-safe, so every
 * write goes through these synchronized methods; writes after the end are dropped. A worker
 * that stops reading (its transport not ready) while more than {@link #MAX_UNREAD} messages
 * pile up for it is cut off: gRPC would otherwise buffer them without bound.
 */
final class WorkerStream {
  /** Messages sent while the worker is not reading, before its stream is closed. */
  static final int MAX_UNREAD = 1000;

  private final StreamObserver<ControllerMessage> out;
  /** Hypervisor of each run assigned (for metrics labels); the oldest are forgotten past a bound. */
  private final java.util.Map<String, String> hypervisors = new java.util.LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(java.util.Map.Entry<String, String> eldest) {
      return size() > 1024;
    }
  };
  private boolean ended;
  private int unread;
  /**
   * When the transport last delivered a message of the worker ({@link System#nanoTime()}), set
   * on gRPC's thread before the message waits for the session actor: a controller busy for a
   * few seconds must not take its own backlog for the worker's silence.
   */
  private volatile long lastHeardNanos = System.nanoTime();
  private Runnable onCutOff = () -> { };

  WorkerStream(StreamObserver<ControllerMessage> out) {
    this.out = out;
  }

  /**
   * Runs {@code then} once the worker is cut off for not reading: the closing status waits
   * behind the unread messages, and gRPC keeps delivering the worker's messages until it is
   * through, so the caller must stop listening and end the session itself.
   */
  /** The worker sent a message (any kind proves it alive). */
  void heard() {
    lastHeardNanos = System.nanoTime();
  }

  /** Time since the worker's last message reached the transport, ns. */
  long silentNanos() {
    return System.nanoTime() - lastHeardNanos;
  }

  synchronized void whenCutOff(Runnable then) {
    onCutOff = then;
  }

  synchronized void welcome(long heartbeatIntervalMs, String controllerNode) {
    send(ControllerMessage.newBuilder().setWelcome(Welcome.newBuilder()
        .setHeartbeatIntervalMs((int) heartbeatIntervalMs).setControllerNode(controllerNode)).build());
  }

  synchronized void assign(Block block) {
    var assignment = DomainToProto.assignment(block);
    assignment.getRunsList().forEach(r -> hypervisors.put(r.getRunId(), r.getHypervisor()));
    send(ControllerMessage.newBuilder().setAssignment(assignment).build());
  }

  synchronized void assignBuild(dev.abfleet.controller.plan.BuildJob job) {
    send(ControllerMessage.newBuilder().setBuildAssignment(BuildProtos.assignment(job)).build());
  }

  /** The hypervisor a run assigned on this stream boots on; empty when it is not known. */
  synchronized String hypervisorOf(String runId) {
    return hypervisors.getOrDefault(runId, "");
  }

  /** Stops a block: now (the VM is killed) or after the boot in progress (preemption). */
  synchronized void cancel(String blockId, String reason, boolean afterCurrentBoot) {
    send(ControllerMessage.newBuilder().setCancel(Cancel.newBuilder().setBlockId(blockId)
        .setReason(reason).setAfterCurrentBoot(afterCurrentBoot)).build());
  }

  /** The run's report was handled; the worker may forget it. */
  synchronized void ack(String runId) {
    send(ControllerMessage.newBuilder().setReportAck(ReportAck.newBuilder().setRunId(runId)).build());
  }

  /** The run's report was refused ({@code reason}) and never recorded; the worker may forget it. */
  synchronized void refused(String runId, String reason) {
    send(ControllerMessage.newBuilder().setReportAck(ReportAck.newBuilder().setRunId(runId)
        .setRefused(reason)).build());
  }

  /**
   * The run's report was not taken now (the controller is behind; nothing was recorded): the
   * worker keeps it and sends it again after a backoff. See ReportAck.code.
   */
  synchronized void retryLater(String runId) {
    send(ControllerMessage.newBuilder().setReportAck(ReportAck.newBuilder().setRunId(runId)
        .setCode(Status.Code.RESOURCE_EXHAUSTED.value())).build());
  }

  /** True once this side has ended the stream: what the worker still sends is moot. */
  synchronized boolean ended() {
    return ended;
  }

  synchronized void complete() {
    if (!ended) {
      ended = true;
      try {
        out.onCompleted();
      } catch (RuntimeException alreadyClosed) {
        // The call was cancelled by the worker; nothing left to close.
      }
    }
  }

  /** Ends the stream with {@code status}; workers reconnect on UNAVAILABLE. */
  synchronized void fail(Status status) {
    if (!ended) {
      ended = true;
      try {
        out.onError(status.asRuntimeException());
      } catch (RuntimeException alreadyClosed) {
        // The call was cancelled by the worker; nothing left to close.
      }
    }
  }

  private void send(ControllerMessage message) {
    if (ended || (out instanceof ServerCallStreamObserver<?> s && s.isCancelled())) {
      return;
    }
    if (out instanceof ServerCallStreamObserver<?> s && !s.isReady()) {
      if (++unread > MAX_UNREAD) {
        fail(Status.RESOURCE_EXHAUSTED.withDescription("the worker does not read its stream: more than "
            + MAX_UNREAD + " messages wait for it; reconnect"));
        onCutOff.run();
        return;
      }
    } else {
      unread = 0;
    }
    try {
      out.onNext(message);
    } catch (RuntimeException cancelled) {
      ended = true;
    }
  }
}
