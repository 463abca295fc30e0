package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Shared pieces of the tests that run a whole controller node over gRPC. */
abstract class ControllerNodeTest {
  static ControllerSettings fastSettings() {
    return ControllerSettings.inMemory().withHeartbeatInterval(Duration.ofMillis(200));
  }

  static ExperimentSpec spec(int pairs) {
    return ExperimentSpec.newBuilder().setName("ab")
        .addArms(arm("base", "baseline", "a"))
        .addArms(arm("cand", "candidate", "b"))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat").addMetrics("seq_read"))
        .setPolicy(Policy.newBuilder().setPairs(pairs).setSeed(17).addGatingMetrics("metadata_stat"))
        .setPriority("pr")
        .build();
  }

  static Arm arm(String name, String role, String hashChar) {
    return Arm.newBuilder().setName(name).setRole(role)
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(hashChar.repeat(64)).setUri("/k/" + name)))
        .build();
  }

  static ExperimentServiceGrpc.ExperimentServiceBlockingStub client(ManagedChannel channel) {
    return ExperimentServiceGrpc.newBlockingStub(channel);
  }

  /** A channel to the node: in-process when it serves in-process, else plaintext TCP on loopback. */
  static ManagedChannel channel(ControllerNode node) {
    return node.inProcessName().<ManagedChannel>map(n -> InProcessChannelBuilder.forName(n).build())
        .orElseGet(() -> NettyChannelBuilder.forAddress("127.0.0.1", node.grpcPort()).usePlaintext().build());
  }

  private static final java.util.concurrent.atomic.AtomicInteger NODES = new java.util.concurrent.atomic.AtomicInteger();

  /** A node serving in this JVM only: no port, no socket (the services and actors are the same). */
  static ControllerNode inProcess(ControllerSettings settings) {
    return ControllerNode.startInProcess(settings, "controller-" + NODES.incrementAndGet());
  }

  static String submit(ExperimentServiceGrpc.ExperimentServiceBlockingStub client, String id, int pairs) {
    return client.submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId(id)
        .setSpec(spec(pairs)).build()).getExperimentId();
  }

  static Experiment awaitExperiment(ExperimentServiceGrpc.ExperimentServiceBlockingStub client,
      String id, Predicate<Experiment> done, Duration timeout) {
    return Eventually.until("experiment " + id, timeout,
        () -> client.getExperiment(GetExperimentRequest.newBuilder().setExperimentId(id).build()), done,
        e -> e instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.UNAVAILABLE);
  }

  /** Every pair has one boot per arm, on one host, under one lease, booted back to back. */
  static void assertPairsBackToBack(Experiment e) {
    Map<Integer, List<Boot>> byPair =
        e.getBootsList().stream().collect(Collectors.groupingBy(Boot::getPairIndex));
    assertThat(byPair).hasSize(e.getPairsWanted());
    byPair.forEach((pair, boots) -> {
      assertThat(boots).extracting(Boot::getArm).containsExactlyInAnyOrder("base", "cand");
      assertThat(boots).extracting(Boot::getOrderInPair).containsExactlyInAnyOrder(0, 1);
      assertThat(boots.stream().map(Boot::getHostId).distinct()).hasSize(1);
      assertThat(boots.stream().map(Boot::getLeaseEpoch).distinct()).hasSize(1);
    });
    assertThat(e.getBootsList().stream().map(Boot::getRunId).distinct())
        .hasSize(e.getBootsCount());
  }

  static Comparison comparison(Experiment e, String metric) {
    return e.getComparisonsList().stream().filter(c -> c.getMetric().equals(metric)).findFirst()
        .orElseThrow();
  }

  static void assertStatus(Status.Code code, Runnable call) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(StatusRuntimeException.class,
        e -> assertThat(e.getStatus().getCode()).isEqualTo(code));
  }
}
