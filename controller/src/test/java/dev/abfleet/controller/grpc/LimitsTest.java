package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import dev.abfleet.model.Limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.ControllerMessage;
import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.WorkerServiceGrpc;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The gRPC server's limits, on a real node over loopback. */
class LimitsTest extends ControllerNodeTest {

  @Test
  void aHundredMegabyteMessageIsRefusedAndTheConnectionKeepsWorking() throws Exception {
    try (ControllerNode node = ControllerNode.start(fastSettings())) {
      ManagedChannel channel = channel(node);
      ManagedChannel other = channel(node);
      var client = client(channel);
      SubmitExperimentRequest huge = SubmitExperimentRequest.newBuilder().setExperimentId("huge")
          .setSpec(ExperimentSpec.newBuilder().setName("x".repeat(100 << 20))).build();

      assertThatThrownBy(() -> client.submitExperiment(huge))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
            assertThat(e.getStatus().getDescription()).contains("4194304");
          });

      assertThat(client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount()).isZero();
      assertThat(client(other).listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount()).isZero();
      assertThat(submit(client, "after-huge", 6)).isEqualTo("after-huge");
      channel.shutdownNow();
      other.shutdownNow();
    }
  }

  @Test
  void aClientPastItsRateIsRefusedWhileAnotherClientIsServed() throws Exception {
    var limits = new Limits(1, 5, 500, 100);
    try (ControllerNode node = ControllerNode.start(fastSettings().withLimits(limits))) {
      ManagedChannel channel = channel(node);
      var flooder = withToken(client(channel), "abf_0123456789ab_secret");
      StatusRuntimeException refused = null;
      for (int i = 0; i < 50 && refused == null; i++) {
        try {
          flooder.listHosts(ListHostsRequest.getDefaultInstance());
        } catch (StatusRuntimeException e) {
          refused = e;
        }
      }

      assertThat(refused).isNotNull();
      assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(refused.getStatus().getDescription())
          .isEqualTo("rate limit: at most 1 calls/s per client (burst 5); retry later");
      // Same connection, another token: another client with its own bucket.
      var polite = withToken(client(channel), "abf_ba9876543210_other");
      assertThat(polite.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount()).isZero();
      assertThat(node.metrics().rateLimitedCount("call")).isPositive();
      assertThat(node.metrics().render())
          .contains("abfleet_grpc_calls_total{code=\"RESOURCE_EXHAUSTED\","
              + "method=\"fleet.v1.ExperimentService/ListHosts\"}")
          .contains("abfleet_grpc_calls_total{code=\"OK\",method=\"fleet.v1.ExperimentService/ListHosts\"}");
      channel.shutdownNow();
    }
  }

  @Test
  void aWorkerFloodingItsStreamIsCutOffAndGoesOffline() throws Exception {
    // 20 messages/s (40 at once): the fake worker's 10 heartbeats/s pass, a burst of 100 does not.
    var limits = new Limits(50, 200, 20, 100);
    try (ControllerNode node = ControllerNode.start(fastSettings().withLimits(limits))) {
      ManagedChannel channel = channel(node);
      var client = client(channel);
      FakeWorker worker = FakeWorker.connect(node.grpcPort(), "flooder", 1.0);
      await(() -> client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount() == 1);

      for (int i = 0; i < 100; i++) {
        worker.send(WorkerMessage.newBuilder().setHeartbeat(Heartbeat.getDefaultInstance()).build());
      }

      await(() -> worker.streamError != null);
      Status status = Status.fromThrowable(worker.streamError);
      assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(status.getDescription()).contains("host flooder")
          .contains("controller.limits.worker_messages_per_second");
      await(() -> !client.listHosts(ListHostsRequest.getDefaultInstance()).getHosts(0).getConnected());
      assertThat(node.metrics().rateLimitedCount("worker_message")).isEqualTo(1);
      worker.close();
      channel.shutdownNow();
    }
  }

  @Test
  void aWorkerThatStopsReadingItsStreamIsCutOffInsteadOfBufferedWithoutBound() throws Exception {
    var limits = new Limits(50, 200, 1_000_000, 100);
    // A heartbeat timeout far longer than the test: only the cut can take the host offline.
    var settings = fastSettings().withLimits(limits).withHeartbeat(Duration.ofMillis(200), Duration.ofMinutes(5));
    try (ControllerNode node = ControllerNode.start(settings)) {
      ManagedChannel channel = channel(node);
      var client = client(channel);
      ManagedChannel deafChannel = channel(node);
      StreamObserver<WorkerMessage> deaf = WorkerServiceGrpc.newStub(deafChannel).connect(
          new ClientResponseObserver<WorkerMessage, ControllerMessage>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<WorkerMessage> requests) {
              requests.disableAutoRequestWithInitial(0); // never reads a single message
            }

            @Override
            public void onNext(ControllerMessage value) {}

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onCompleted() {}
          });
      deaf.onNext(WorkerMessage.newBuilder().setHello(Hello.newBuilder().setHostId("deaf")).build());
      await(() -> client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount() == 1);

      // Each forged report is answered by a refused ack of ~1 KiB that the worker never reads:
      // 4,000 of them are past the connection's 1 MiB window plus MAX_UNREAD.
      String padding = "r".repeat(1000);
      for (int i = 0; i < 4000; i++) {
        deaf.onNext(WorkerMessage.newBuilder().setRunResult(RunResult.newBuilder()
            .setRunId(padding + i).setExperimentId("e").setBlockId("b").setLeaseEpoch(1)).build());
      }

      // It keeps heartbeating: only the closed stream can make it go offline.
      await(() -> {
        deaf.onNext(WorkerMessage.newBuilder().setHeartbeat(Heartbeat.getDefaultInstance()).build());
        return !client.listHosts(ListHostsRequest.getDefaultInstance()).getHosts(0).getConnected();
      });
      assertThat(node.metrics().rejectedReports("deaf", "unleased_block")).isGreaterThan(WorkerStream.MAX_UNREAD);
      deafChannel.shutdownNow();
      channel.shutdownNow();
    }
  }

  private static ExperimentServiceGrpc.ExperimentServiceBlockingStub withToken(
      ExperimentServiceGrpc.ExperimentServiceBlockingStub stub, String token) {
    Metadata headers = new Metadata();
    headers.put(CallLimiter.AUTHORIZATION, "Bearer " + token);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  static void await(BooleanSupplier condition) {
    Eventually.await("condition", Duration.ofSeconds(20), condition);
  }
}
