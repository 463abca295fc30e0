package dev.abfleet.worker.link;

import dev.abfleet.proto.fleet.v1.WorkerMessage;
import io.grpc.Status;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the worker has to tell the controller: messages waiting for a stream, in order, and run
 * reports sent but not yet acknowledged, which go back to the head of the queue when their
 * stream ends. Not thread-safe: {@link ControllerLink} holds its lock around every call.
 *
 * <p>No single report may block the queue. One larger than {@code maxMessageBytes} is
 * {@linkplain Reports#shrunk shrunk} before it is sent. One the controller refuses (it ends the
 * stream with a {@linkplain #REFUSALS refusal code}) would otherwise be re-sent first on every
 * stream, for ever, with nothing behind it getting through; so after such an end the outbox
 * <em>isolates</em>: it lets one report out at a time and waits for its acknowledgement. A
 * refusal with one report out is that report's: it is shrunk, and a shrunk report refused
 * again is dropped with an error logged. Isolation ends once the queue has drained.
 */
final class Outbox {
  private static final Logger log = LoggerFactory.getLogger(Outbox.class);

  /**
   * How a controller ends a stream over a message it cannot take: grpc-java resets a stream
   * whose message is over its size limit (CANCELLED; other stacks say RESOURCE_EXHAUSTED), a
   * message it cannot parse is INTERNAL, a handler that throws is UNKNOWN, and a report the
   * controller rejects is INVALID_ARGUMENT. Its own decisions to close a stream use other codes
   * (UNAVAILABLE, ABORTED).
   */
  static final Set<Status.Code> REFUSALS = EnumSet.of(Status.Code.CANCELLED, Status.Code.RESOURCE_EXHAUSTED,
      Status.Code.INTERNAL, Status.Code.UNKNOWN, Status.Code.INVALID_ARGUMENT);

  private final int maxMessageBytes;
  private final Deque<WorkerMessage> queue = new ArrayDeque<>();
  /** Run reports handed out and not yet acknowledged, by run id, in send order. */
  private final Map<String, WorkerMessage> unacknowledged = new LinkedHashMap<>();
  /** Runs whose report in here is already a shrunk one. */
  private final Set<String> shrunk = new HashSet<>();
  private boolean isolating;

  /** @param maxMessageBytes the largest message handed out; larger reports are shrunk first */
  Outbox(int maxMessageBytes) {
    this.maxMessageBytes = maxMessageBytes;
  }

  void add(WorkerMessage m) {
    queue.addLast(m);
  }

  /**
   * The next message to send, or empty when there is none or isolation waits for an
   * acknowledgement. A run report handed out counts as unacknowledged from then on.
   */
  Optional<WorkerMessage> poll() {
    if (isolating && !unacknowledged.isEmpty()) {
      return Optional.empty();
    }
    WorkerMessage m = queue.pollFirst();
    if (m == null) {
      isolating = false;
      return Optional.empty();
    }
    WorkerMessage out = fitting(m);
    Reports.runId(out).ifPresent(runId -> unacknowledged.put(runId, out));
    return Optional.of(out);
  }

  /** The controller has handled the report of {@code runId}. */
  void acknowledged(String runId) {
    unacknowledged.remove(runId);
    shrunk.remove(runId);
    if (unacknowledged.isEmpty() && queue.isEmpty()) {
      isolating = false;
    }
  }

  /**
   * The controller did not take the report of {@code runId} now (it is behind): the report goes
   * back to the head of the queue, to be handed out again. False when no such report is out
   * (an answer that came late, after its stream ended and it was queued again).
   */
  boolean deferred(String runId) {
    WorkerMessage report = unacknowledged.remove(runId);
    if (report == null) {
      return false;
    }
    queue.addFirst(report);
    return true;
  }

  /** The stream ended: reports not acknowledged go back to the head of the queue, in order. */
  void streamEnded(Status status) {
    boolean refused = REFUSALS.contains(status.getCode());
    if (refused && isolating && unacknowledged.size() == 1) {
      WorkerMessage report = unacknowledged.values().iterator().next();
      unacknowledged.clear();
      refusedAlone(report, status).ifPresent(queue::addFirst);
    }
    if (refused && !unacknowledged.isEmpty()) {
      isolating = true;
    }
    List<WorkerMessage> resend = new ArrayList<>(unacknowledged.values());
    unacknowledged.clear();
    for (int i = resend.size() - 1; i >= 0; i--) {
      queue.addFirst(resend.get(i));
    }
  }

  /** Messages not yet handed out plus run reports not yet acknowledged. */
  int pending() {
    return queue.size() + unacknowledged.size();
  }

  /** True while reports go out one at a time after a refusal. */
  boolean isolating() {
    return isolating;
  }

  /** What to send instead of a report the controller refused while it was the only one out; empty = nothing. */
  private Optional<WorkerMessage> refusedAlone(WorkerMessage report, Status status) {
    String runId = Reports.runId(report).orElseThrow();
    String why = "the controller refused the report (" + status.getCode() + ": " + status.getDescription() + ")";
    if (shrunk.remove(runId)) {
      log.error("run {}: dropping its report: {} even shrunk; the run stays unreported", runId, why);
      return Optional.empty();
    }
    log.error("run {}: {}; sending it again shrunk", runId, why);
    shrunk.add(runId);
    return Optional.of(Reports.shrunk(report, why));
  }

  /** {@code m}, or its shrunk form when it is too large to send. */
  private WorkerMessage fitting(WorkerMessage m) {
    int size = m.getSerializedSize();
    Optional<String> runId = Reports.runId(m);
    if (size <= maxMessageBytes || runId.isEmpty()) {
      return m;
    }
    String why = "the report is " + size + " bytes, over the " + maxMessageBytes + " bytes a worker sends in one message";
    log.error("run {}: {}; sending it shrunk", runId.get(), why);
    shrunk.add(runId.get());
    return Reports.shrunk(m, why);
  }
}
