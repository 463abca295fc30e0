package dev.abfleet.worker.link;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.BlockFinished;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.ReportAck;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.Welcome;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The link against an in-process WorkerService that behaves like a controller. */
class ControllerLinkTest {
  private final BlockingQueue<WorkerMessage> received = new LinkedBlockingQueue<>();
  private final List<StreamObserver<ControllerMessage>> streams = new CopyOnWriteArrayList<>();
  private final BlockingQueue<BlockAssignment> assignments = new LinkedBlockingQueue<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  /** Reports this controller handled (and acknowledged), in order. */
  private final List<WorkerMessage> handled = new CopyOnWriteArrayList<>();
  /**
   * Run reports larger than this are refused the way a gRPC server refuses a message over its
   * size limit (the stream is reset: CANCELLED); smaller ones are handled and acknowledged. 0 =
   * reports are neither refused nor acknowledged.
   */
  private volatile int refuseReportsOver;
  /** Run reports answered "behind, send again later" (ReportAck code RESOURCE_EXHAUSTED) before any is handled. */
  private final java.util.concurrent.atomic.AtomicInteger reportsToDefer = new java.util.concurrent.atomic.AtomicInteger();
  private Server server;
  private ManagedChannel channel;
  private ControllerLink link;

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor().addService(new WorkerServiceGrpc.WorkerServiceImplBase() {
      @Override
      public StreamObserver<WorkerMessage> connect(StreamObserver<ControllerMessage> out) {
        streams.add(out);
        return new StreamObserver<>() {
          private boolean refused;

          @Override
          public void onNext(WorkerMessage m) {
            received.add(m);
            if (refused) {
              return; // a reset stream takes nothing more
            }
            if ((m.hasRunResult() || m.hasRunFailure()) && reportsToDefer.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
              out.onNext(ControllerMessage.newBuilder().setReportAck(ReportAck.newBuilder()
                  .setRunId(m.hasRunResult() ? m.getRunResult().getRunId() : m.getRunFailure().getRunId())
                  .setCode(Status.Code.RESOURCE_EXHAUSTED.value())).build());
              return;
            }
            if (refuseReportsOver > 0 && (m.hasRunResult() || m.hasRunFailure())) {
              if (m.getSerializedSize() > refuseReportsOver) {
                refused = true;
                timer.execute(() -> out.onError(Status.CANCELLED
                    .withDescription("RST_STREAM closed stream. HTTP/2 error code: CANCEL").asRuntimeException()));
                return;
              }
              handled.add(m);
              out.onNext(ControllerMessage.newBuilder().setReportAck(ReportAck.newBuilder()
                  .setRunId(m.hasRunResult() ? m.getRunResult().getRunId() : m.getRunFailure().getRunId())).build());
            }
            if (m.hasHello()) {
              out.onNext(ControllerMessage.newBuilder()
                  .setWelcome(Welcome.newBuilder().setHeartbeatIntervalMs(100)).build());
            }
          }

          @Override
          public void onError(Throwable t) {}

          @Override
          public void onCompleted() {}
        };
      }
    }).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    Backoff fast = new Backoff(Duration.ofMillis(10), Duration.ofMillis(50), 2, 0.1, new SplittableRandom(3));
    link = new ControllerLink(channel, () -> Hello.newBuilder().setHostId("h1").build(), () -> "run-7",
        new ControllerLink.Handler() {
          @Override
          public void onAssignment(BlockAssignment a) {
            assignments.add(a);
          }

          @Override
          public void onCancel(Cancel c) {}
        }, fast, timer);
  }

  @AfterEach
  void stop() throws Exception {
    link.close();
    channel.shutdownNow();
    server.shutdownNow();
    timer.shutdownNow();
  }

  private WorkerMessage next() throws InterruptedException {
    WorkerMessage m = received.poll(5, TimeUnit.SECONDS);
    assertThat(m).as("a message from the worker").isNotNull();
    return m;
  }

  private WorkerMessage nextOfKind(WorkerMessage.KindCase kind) throws InterruptedException {
    while (true) {
      WorkerMessage m = next();
      if (m.getKindCase() == kind) {
        return m;
      }
    }
  }

  /**
   * Returns once every task the link scheduled so far on its timer with a delay up to the largest
   * (50 ms +10% jitter) has run: the timer has one thread and runs tasks in the order they fall
   * due, and a task due 60 ms from now has run.
   */
  private void afterTheLargestDelay() throws Exception {
    timer.schedule(() -> { }, 60, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS);
  }

  private void awaitConnected() {
    Eventually.await("link connected", java.time.Duration.ofSeconds(5), () -> link.state() == LinkState.CONNECTED);
  }

  @Test
  void sendsHelloFirstThenHeartbeatsWithTheRunningRun() throws Exception {
    link.start();
    assertThat(next().getHello().getHostId()).isEqualTo("h1");
    assertThat(nextOfKind(WorkerMessage.KindCase.HEARTBEAT).getHeartbeat().getRunningRunId()).isEqualTo("run-7");
  }

  @Test
  void handsAssignmentsToTheHandler() throws Exception {
    link.start();
    awaitConnected();
    streams.get(0).onNext(ControllerMessage.newBuilder()
        .setAssignment(BlockAssignment.newBuilder().setBlockId("b1").setLeaseEpoch(4)).build());
    BlockAssignment a = assignments.poll(5, TimeUnit.SECONDS);
    assertThat(a).isNotNull();
    assertThat(a.getBlockId()).isEqualTo("b1");
  }

  private static WorkerMessage result(String runId) {
    return WorkerMessage.newBuilder().setRunResult(RunResult.newBuilder().setRunId(runId).setLeaseEpoch(4)).build();
  }

  private void ack(int stream, String runId) {
    streams.get(stream).onNext(ControllerMessage.newBuilder()
        .setReportAck(ReportAck.newBuilder().setRunId(runId)).build());
  }

  @Test
  void resendsAnUnacknowledgedReportOnTheNextStream() throws Exception {
    link.start();
    awaitConnected();
    link.send(result("r1"));
    assertThat(nextOfKind(WorkerMessage.KindCase.RUN_RESULT).getRunResult().getRunId()).isEqualTo("r1");
    streams.get(0).onError(Status.UNAVAILABLE.withDescription("controller died before recording r1").asRuntimeException());
    WorkerMessage again = nextOfKind(WorkerMessage.KindCase.RUN_RESULT);
    assertThat(again.getRunResult().getRunId()).isEqualTo("r1");
    assertThat(streams).hasSize(2);
    ack(1, "r1");
    Eventually.await("outbox empty", java.time.Duration.ofSeconds(5), () -> link.pending() == 0);
    assertThat(link.pending()).isZero();
  }

  @Test
  void forgetsAcknowledgedReports() throws Exception {
    link.start();
    awaitConnected();
    link.send(result("r1"));
    nextOfKind(WorkerMessage.KindCase.RUN_RESULT);
    ack(0, "r1");
    assertThat(link.pending()).isZero();
    streams.get(0).onError(Status.UNAVAILABLE.asRuntimeException());
    nextOfKind(WorkerMessage.KindCase.HELLO);
    awaitConnected();
    link.send(result("r2"));
    assertThat(nextOfKind(WorkerMessage.KindCase.RUN_RESULT).getRunResult().getRunId())
        .as("r1 was acknowledged and is not sent again").isEqualTo("r2");
  }

  @Test
  void reconnectsAfterTheControllerDropsTheStreamAndDeliversQueuedReports() throws Exception {
    link.start();
    awaitConnected();
    streams.get(0).onError(Status.UNAVAILABLE.withDescription("controller restarting").asRuntimeException());
    // Written while the stream is down or reconnecting: must not be lost.
    link.send(WorkerMessage.newBuilder()
        .setBlockFinished(BlockFinished.newBuilder().setBlockId("b1").setLeaseEpoch(4)).build());
    WorkerMessage finished = nextOfKind(WorkerMessage.KindCase.BLOCK_FINISHED);
    assertThat(finished.getBlockFinished().getBlockId()).isEqualTo("b1");
    assertThat(streams).hasSizeGreaterThanOrEqualTo(2);
    assertThat(link.pending()).isZero();
  }

  @Test
  void deliversTheReportsQueuedBehindOneTheControllerRefuses() throws Exception {
    refuseReportsOver = 1_000;
    link.start();
    awaitConnected();
    RunResult.Builder large = RunResult.newBuilder().setRunId("r2").setLeaseEpoch(4);
    for (int i = 0; i < 100; i++) {
      large.addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(i).setUnit("ops/s")
          .setBetter("higher").setIteration(i));
    }

    link.send(result("r1"));
    link.send(WorkerMessage.newBuilder().setRunResult(large).build());
    link.send(result("r3"));

    Eventually.await("outbox empty", java.time.Duration.ofSeconds(5), () -> link.pending() == 0);
    assertThat(link.pending()).as("every report delivered").isZero();
    assertThat(handled).extracting(WorkerMessage::getKindCase).containsExactly(
        WorkerMessage.KindCase.RUN_RESULT, WorkerMessage.KindCase.RUN_FAILURE, WorkerMessage.KindCase.RUN_RESULT);
    assertThat(handled.get(1).getRunFailure().getRunId()).isEqualTo("r2");
    assertThat(handled.get(1).getRunFailure().getMessage()).contains("the controller refused the report (CANCELLED");
    assertThat(handled.get(2).getRunResult().getRunId()).isEqualTo("r3");
  }

  @Test
  void saysInHelloThatItRetriesDeferredReports() throws Exception {
    link.start();
    assertThat(next().getHello().getRetriesDeferredReports()).isTrue();
  }

  @Test
  void sendsADeferredReportAgainAfterABackoffAndDeliversItOnce() throws Exception {
    refuseReportsOver = Integer.MAX_VALUE;
    reportsToDefer.set(2);
    link.start();
    awaitConnected();

    link.send(result("r1"));
    link.send(WorkerMessage.newBuilder()
        .setBlockFinished(BlockFinished.newBuilder().setBlockId("b1").setLeaseEpoch(4)).build());

    Eventually.await("outbox empty", java.time.Duration.ofSeconds(5), () -> link.pending() == 0);
    assertThat(link.pending()).as("the report delivered, the block's end behind it").isZero();
    // Deferred twice, taken the third time; the BlockFinished waited behind it all along.
    assertThat(received).extracting(WorkerMessage::getKindCase)
        .filteredOn(k -> k != WorkerMessage.KindCase.HELLO && k != WorkerMessage.KindCase.HEARTBEAT)
        .containsExactly(WorkerMessage.KindCase.RUN_RESULT, WorkerMessage.KindCase.RUN_RESULT,
            WorkerMessage.KindCase.RUN_RESULT, WorkerMessage.KindCase.BLOCK_FINISHED);
    assertThat(handled).extracting(m -> m.getRunResult().getRunId()).containsExactly("r1");
    // An acknowledged report is never sent again: a retry still pending was scheduled at the last
    // deferral, due within the largest retry delay (50 ms +10%), and has run once a later one has.
    afterTheLargestDelay();
    assertThat(received).filteredOn(WorkerMessage::hasRunResult).hasSize(3);
    assertThat(handled).hasSize(1);
  }

  @Test
  void closedLinkNeverReconnects() throws Exception {
    link.start();
    awaitConnected();
    link.close();
    int before = streams.size();
    // A reconnect scheduled at close would be due within the largest backoff.
    afterTheLargestDelay();
    assertThat(streams).hasSize(before);
    assertThat(link.state()).isEqualTo(LinkState.CLOSED);
  }
}
