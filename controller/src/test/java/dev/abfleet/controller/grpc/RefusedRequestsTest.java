package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    ExperimentSpec spec = ControllerNodeTest.spec(6).toBuilder()
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
  void refusesADesignThatCannotDecideNamingThePairsThatCan() {
    assertThatThrownBy(() -> client.submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId("e-one")
        .setSpec(spec(1)).build())).isInstanceOfSatisfying(io.grpc.StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(e.getStatus().getDescription()).contains("policy: pairs 1 cannot decide (the smallest p of 1"
              + " pair is 1): with 1 gating metric at alpha 0.05 the smallest design that can is 6 pairs; use"
              + " policy.pairs 6 or more");
        });
    assertStatus(Status.Code.NOT_FOUND, () -> client.getExperiment(
        GetExperimentRequest.newBuilder().setExperimentId("e-one").build()));
  }

  @Test
  void acceptsAnAaExperimentOfTwoPairs() {
    ExperimentSpec aa = spec(2).toBuilder().setArms(1, arm("twin", "candidate", "a")).build();
    // Accepted, so it changes its node: a node of its own.
    try (ControllerNode own = ControllerNodeTest.inProcess(fastSettings())) {
      ManagedChannel ch = channel(own);
      try {
        assertThat(client(ch).submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId("e-aa")
            .setSpec(aa).build()).getExperimentId()).isEqualTo("e-aa");
      } finally {
        ch.shutdownNow();
      }
    }
  }

  @Test
  void refusesABisectWhoseProbesCannotDecide() {
    var bisects = dev.abfleet.proto.fleet.v1.BisectServiceGrpc.newBlockingStub(channel);
    var request = BisectServiceTest.request("b-short", 4).toBuilder().clearLooks().addLooks(2).addLooks(3).build();

    assertThatThrownBy(() -> bisects.startBisect(request)).isInstanceOfSatisfying(
        io.grpc.StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(e.getStatus().getDescription()).contains("looks [2, 3] cannot decide")
              .contains("use looks ending at 6 or more");
        });
  }

  @Test
  void mapsErrorsToStatusCodes() {
    assertStatus(Status.Code.NOT_FOUND, () -> client.getExperiment(
        GetExperimentRequest.newBuilder().setExperimentId("e-none").build()));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> client.submitExperiment(
        SubmitExperimentRequest.newBuilder().setExperimentId("e-bad")
            .setSpec(spec(6).toBuilder().removeArms(1)).build()));
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
