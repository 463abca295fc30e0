package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests a node refuses, and how: none of them changes the node, so they share one (a node
 * start costs about a second).
 */
class RefusedRequestsTest extends ControllerNodeTest {
  static ControllerNode node;
  static ManagedChannel channel;
  static ExperimentServiceGrpc.ExperimentServiceBlockingStub client;

  @BeforeAll
  static void start() {
    node = ControllerNodeTest.inProcess(fastSettings());
    channel = channel(node);
    client = client(channel);
  }

  @AfterAll
  static void stop() {
    channel.shutdownNow();
    node.close();
  }

  @Test
  void rejectsTwoCeilingArms() {
    ExperimentSpec spec = ControllerNodeTest.spec(4).toBuilder()
        .addArms(ControllerNodeTest.arm("c1", "ceiling", "c"))
        .addArms(ControllerNodeTest.arm("c2", "ceiling", "d"))
        .build();
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> client.submitExperiment(
        SubmitExperimentRequest.newBuilder().setSpec(spec).build()));
  }

  @Test
  void rejectsLooksThatAreNotAscending() {
    ExperimentSpec spec = ControllerNodeTest.spec(0).toBuilder()
        .setPolicy(Policy.newBuilder().addLooks(16).addLooks(8)).build();
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> client.submitExperiment(
        SubmitExperimentRequest.newBuilder().setSpec(spec).build()));
  }

  @Test
  void mapsErrorsToStatusCodes() {
    assertStatus(Status.Code.NOT_FOUND, () -> client.getExperiment(
        GetExperimentRequest.newBuilder().setExperimentId("e-none").build()));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> client.submitExperiment(
        SubmitExperimentRequest.newBuilder().setExperimentId("e-bad")
            .setSpec(spec(4).toBuilder().removeArms(1)).build()));
  }

  @Test
  void firstWorkerMessageMustBeHello() throws Exception {
    // A raw stream whose first message is a heartbeat.
    var stub = dev.abfleet.proto.fleet.v1.WorkerServiceGrpc.newStub(channel);
    var error = new java.util.concurrent.CompletableFuture<Throwable>();
    var requests = stub.connect(new io.grpc.stub.StreamObserver<>() {
      public void onNext(dev.abfleet.proto.fleet.v1.ControllerMessage m) {}

      public void onError(Throwable t) {
        error.complete(t);
      }

      public void onCompleted() {
        error.complete(null);
      }
    });
    requests.onNext(WorkerMessage.newBuilder()
        .setHeartbeat(dev.abfleet.proto.fleet.v1.Heartbeat.getDefaultInstance()).build());

    Throwable t = error.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(Status.fromThrowable(t).getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
  }
}
