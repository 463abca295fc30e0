package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectKernel;
import dev.abfleet.proto.fleet.v1.BisectProbe;
import dev.abfleet.proto.fleet.v1.BisectServiceGrpc;
import dev.abfleet.proto.fleet.v1.CancelBisectRequest;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.GetBisectRequest;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.ListBisectsRequest;
import dev.abfleet.proto.fleet.v1.StartBisectRequest;
import dev.abfleet.proto.fleet.v1.WatchBisectRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** BisectService on a real controller node (in-memory store) with fake workers over gRPC. */
class BisectServiceTest extends ControllerNodeTest {

  static StartBisectRequest request(String id, int kernels) {
    StartBisectRequest.Builder b = StartBisectRequest.newBuilder().setBisectId(id)
        .setMetric("metadata_stat").setNoiseThreshold(0.05).setAlpha(0.05).addAllLooks(List.of(6, 10))
        .setTemplate(ExperimentSpec.newBuilder()
            .addArms(withoutKernel(arm("shape", "baseline", "0")))
            .setBenchmark(spec(1).getBenchmark().toBuilder().clearMetrics().addMetrics("metadata_stat")));
    for (int i = 0; i < kernels; i++) {
      b.addKernels(BisectKernel.newBuilder().setLabel("/k/" + i)
          .setKernel(Artifact.newBuilder().setSha256("%064x".formatted(i + 1)).setUri("/k/" + i)));
    }
    return b.build();
  }

  @Test
  @Timeout(60)
  void aStartedBisectRunsOneExperimentPerProbeAndWatchEndsWithTheAnswer() {
    try (ControllerNode node = ControllerNodeTest.inProcess(fastSettings());
        FakeWorker worker = new FakeWorker(node, "h1", 0.7, Integer.MAX_VALUE, false)
            .withSlowArms(arm -> arm.startsWith("probe-") && Integer.parseInt(arm.substring(6)) >= 3).start()) {
      ManagedChannel channel = channel(node);
      var bisects = BisectServiceGrpc.newBlockingStub(channel);

      String id = bisects.startBisect(request("b-svc", 8)).getBisectId();
      List<Bisect> seen = new ArrayList<>();
      bisects.watchBisect(WatchBisectRequest.newBuilder().setBisectId(id).build()).forEachRemaining(seen::add);

      Bisect done = seen.get(seen.size() - 1);
      assertThat(id).isEqualTo("b-svc");
      assertThat(seen).first().extracting(Bisect::getState).isEqualTo("running");
      assertThat(done.getState()).as(done.toString()).isEqualTo("found");
      assertThat(done.getFirstBad()).isEqualTo(3);
      assertThat(done.getLastGood()).isEqualTo(2);
      assertThat(done.getMaxProbes()).isEqualTo(4);
      assertThat(done.getFraction()).isEqualTo(0.5);
      assertThat(done.getEndpointChange()).isEqualTo(done.getProbes(0).getChange()).isBetween(-0.35, -0.25);
      assertThat(done.getEndpointCiHigh()).isLessThan(0);
      assertThat(done.getProbesList()).allSatisfy(p -> assertThat(p.getRule()).isNotEmpty());
      assertThat(done.getKernelsList()).extracting(BisectKernel::getLabel).contains("/k/0", "/k/7");
      assertThat(done.getProbesList()).extracting(BisectProbe::getExperimentId)
          .containsExactly("b-svc-0-vs-7", "b-svc-0-vs-3", "b-svc-0-vs-1", "b-svc-0-vs-2");
      assertThat(done.getProbesList()).extracting(BisectProbe::getOutcome)
          .containsExactly("bad", "bad", "good", "good");
      for (BisectProbe p : done.getProbesList()) {
        Experiment e = client(channel).getExperiment(GetExperimentRequest.newBuilder()
            .setExperimentId(p.getExperimentId()).build());
        assertThat(e.getState()).isEqualTo("completed");
        // The endpoints' experiment (the first) runs to the last look; the probes may stop at either.
        boolean endpoints = p.getProbe() == 7;
        assertThat(e.getSpec().getPolicy().getLooksList()).containsExactlyElementsOf(endpoints ? List.of(10) : List.of(6, 10));
        assertThat((int) e.getPairsDone()).isEqualTo(p.getPairs()).isIn(endpoints ? List.of(10) : List.of(6, 10));
        assertThat(e.getBootsCount()).isEqualTo(p.getBoots());
      }
      // A retry of the same start answers the same bisect and runs nothing new.
      assertThat(bisects.startBisect(request("b-svc", 8)).getBisectId()).isEqualTo("b-svc");
      assertThat(bisects.getBisect(GetBisectRequest.newBuilder().setBisectId(id).build())).isEqualTo(done);
      channel.shutdownNow();
    }
  }

  @Test
  @Timeout(60)
  void cancelStopsTheProbeInFlightAndBadCallsAreNamed() throws Exception {
    try (ControllerNode node = ControllerNodeTest.inProcess(fastSettings());
        FakeWorker stalling = new FakeWorker(node, "h1", 0.7, 0, false).start()) {
      ManagedChannel channel = channel(node);
      var bisects = BisectServiceGrpc.newBlockingStub(channel);
      bisects.startBisect(request("b-cancel", 4));
      awaitSubmitted(client(channel), "b-cancel-0-vs-3");

      Bisect cancelled = bisects.cancelBisect(CancelBisectRequest.newBuilder().setBisectId("b-cancel")
          .setReason("wrong kernels").build());

      assertThat(cancelled.getState()).isEqualTo("cancelled");
      assertThat(cancelled.getMessage()).isEqualTo("wrong kernels");
      Experiment probe = awaitExperiment(client(channel), "b-cancel-0-vs-3",
          e -> !e.getState().equals("running"), Duration.ofSeconds(10));
      assertThat(probe.getState()).isEqualTo("cancelled");
      assertThat(probe.getMessage()).contains("bisect b-cancel cancelled: wrong kernels");

      assertStatus(Status.Code.NOT_FOUND, () -> bisects.getBisect(GetBisectRequest.newBuilder().setBisectId("b-none").build()));
      assertInvalid(() -> bisects.getBisect(GetBisectRequest.newBuilder().setBisectId("../etc").build()),
          d -> assertThat(d).contains("bisect_id: '../etc' is not a valid bisect id"));
      assertInvalid(() -> bisects.startBisect(request("b-bad", 1).toBuilder().clearLooks().addLooks(5).addLooks(3)
              .setMetric("").build()),
          d -> assertThat(d).contains("kernels: 1 given", "metric: missing", "looks: [5, 3]"));
      assertInvalid(() -> bisects.startBisect(request("b-bad", 3).toBuilder().setMetric("seq_read").build()),
          d -> assertThat(d).contains("metric: seq_read is not among the template benchmark's metrics"));
      assertStatus(Status.Code.FAILED_PRECONDITION, () -> bisects.startBisect(request("b-vz", 3).toBuilder()
          .setTemplate(request("b-vz", 3).getTemplate().toBuilder().setSelector(HostSelector.newBuilder().setHypervisor("vz")))
          .build()));
      // The in-memory journal cannot be listed (the JDBC store can: BisectRestartTest in the CLI).
      assertStatus(Status.Code.FAILED_PRECONDITION, () -> bisects.listBisects(ListBisectsRequest.getDefaultInstance()));
      channel.shutdownNow();
    }
  }

  /** Waits until the bisect has submitted its probe's experiment {@code id}. */
  private static void awaitSubmitted(dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc.ExperimentServiceBlockingStub
      experiments, String id) {
    Eventually.until("experiment " + id + " submitted", Duration.ofSeconds(10),
        () -> experiments.getExperiment(GetExperimentRequest.newBuilder().setExperimentId(id).build()), e -> true,
        e -> e instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.NOT_FOUND);
  }

  private static void assertInvalid(Runnable call, Consumer<String> description) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
      assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      description.accept(e.getStatus().getDescription());
    });
  }

  private static dev.abfleet.proto.fleet.v1.Arm withoutKernel(dev.abfleet.proto.fleet.v1.Arm a) {
    return a.toBuilder().setBoot(a.getBoot().toBuilder().clearKernel()).build();
  }
}
