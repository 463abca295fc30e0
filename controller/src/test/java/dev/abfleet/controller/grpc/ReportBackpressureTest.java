package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.abfleet.controller.http.ControllerMetrics;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.proto.fleet.v1.BlockFinished;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.ReportAck;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * While the scheduler is behind, the worker edge defers run reports (ReportAck code
 * RESOURCE_EXHAUSTED) instead of adding to the scheduler's backlog, and holds the block's end
 * until its report is taken; a worker that did not say it retries is never deferred.
 */
class ReportBackpressureTest {
  private final ActorTestKit kit = ActorTestKit.create(ConfigFactory.parseString("""
      pekko.actor.provider = cluster
      pekko.remote.artery.canonical.hostname = 127.0.0.1
      pekko.remote.artery.canonical.port = 0
      """));
  private final AtomicBoolean behind = new AtomicBoolean(true);
  private final ControllerMetrics metrics = new ControllerMetrics();
  private final TestProbe<Scheduler.Command> scheduler = kit.createTestProbe();
  private final BlockingQueue<ControllerMessage> fromController = new LinkedBlockingQueue<>();
  private Server server;
  private ManagedChannel channel;
  private StreamObserver<WorkerMessage> toController;

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new WorkerServiceImpl(kit.system(), scheduler.ref(), Duration.ofSeconds(1),
            Duration.ofSeconds(60), metrics, 1000, behind::get))
        .build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
    kit.shutdownTestKit();
  }

  @Test
  void defersAReportWhileTheSchedulerIsBehindAndHoldsItsBlocksEnd() throws Exception {
    connect(true);

    send(report("r1", "b1"));
    send(WorkerMessage.newBuilder().setBlockFinished(BlockFinished.newBuilder().setBlockId("b1").setLeaseEpoch(4)).build());

    ReportAck deferred = nextAck();
    assertThat(deferred.getRunId()).isEqualTo("r1");
    assertThat(deferred.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED.value());
    assertThat(deferred.getRefused()).isEmpty();
    assertThat(metrics.deferredReports()).isEqualTo(1);
    scheduler.expectNoMessage(Duration.ofMillis(300));

    behind.set(false);
    send(report("r1", "b1"));

    // Taken now: the session judges it (no block of this stream is leased: refused, counted by
    // the scheduler), and only then does the held end of its block reach the scheduler.
    ReportAck taken = nextAck();
    assertThat(taken.getCode()).isZero();
    assertThat(taken.getRefused()).isEqualTo("unleased_block");
    assertThat(scheduler.expectMessageClass(Scheduler.ReportRejected.class).hostId()).isEqualTo("h1");
    assertThat(scheduler.expectMessageClass(Scheduler.BlockDone.class).blockId()).isEqualTo("b1");
    assertThat(metrics.deferredReports()).isEqualTo(1);
  }

  @Test
  void neverDefersTheReportsOfAWorkerThatWouldNotRetryThem() throws Exception {
    connect(false);

    send(report("r1", "b1"));

    ReportAck ack = nextAck();
    assertThat(ack.getCode()).isZero();
    assertThat(ack.getRefused()).isEqualTo("unleased_block");
    assertThat(metrics.deferredReports()).isZero();
  }

  private void connect(boolean retriesDeferred) throws Exception {
    toController = WorkerServiceGrpc.newStub(channel).connect(new StreamObserver<>() {
      @Override
      public void onNext(ControllerMessage m) {
        fromController.add(m);
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {}
    });
    send(WorkerMessage.newBuilder().setHello(Hello.newBuilder().setHostId("h1").setArch("x86_64")
        .addHypervisors(HypervisorCapability.newBuilder().setName("qemu").addAccelerators("tcg"))
        .setRetriesDeferredReports(retriesDeferred)).build());
    ControllerMessage welcome = fromController.poll(10, TimeUnit.SECONDS);
    assertThat(welcome).isNotNull();
    assertThat(welcome.hasWelcome()).isTrue();
    scheduler.expectMessageClass(Scheduler.RegisterHost.class);
  }

  private void send(WorkerMessage m) {
    toController.onNext(m);
  }

  private ReportAck nextAck() throws InterruptedException {
    while (true) {
      ControllerMessage m = fromController.poll(10, TimeUnit.SECONDS);
      assertThat(m).as("a message from the controller").isNotNull();
      if (m.hasReportAck()) {
        return m.getReportAck();
      }
    }
  }

  private static WorkerMessage report(String runId, String blockId) {
    return WorkerMessage.newBuilder().setRunResult(RunResult.newBuilder().setRunId(runId)
        .setExperimentId("e1").setBlockId(blockId).setLeaseEpoch(4)).build();
  }
}
