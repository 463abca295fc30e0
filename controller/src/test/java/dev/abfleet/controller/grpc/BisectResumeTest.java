package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectProbe;
import dev.abfleet.proto.fleet.v1.BisectServiceGrpc;
import dev.abfleet.proto.fleet.v1.BisectSummary;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.GetBisectRequest;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.ListBisectsRequest;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bisect on a controller with an H2 file store goes on after the controller is closed and a
 * new one started on the same file, with nobody asking about it: the new controller wakes it,
 * it follows its probe in flight, and the probe finished before the restart is not run again.
 */
class BisectResumeTest extends ControllerNodeTest {
  private static final Predicate<String> SLOW_FROM_3 =
      arm -> arm.startsWith("probe-") && Integer.parseInt(arm.substring(6)) >= 3;

  @Test
  @Timeout(120)
  void aBisectResumesAfterARestartWithoutAClientAndRunsNoProbeTwice(@TempDir Path dir) throws Exception {
    ControllerSettings settings = fastSettings()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    Experiment firstBefore;
    try (ControllerNode first = ControllerNodeTest.inProcess(settings);
        // Answers enough blocks to finish the endpoints' experiment (6 or 10 pairs), then holds the rest.
        FakeWorker stalling = new FakeWorker(first, "h1", 0.7, 10, false).withSlowArms(SLOW_FROM_3).start()) {
      ManagedChannel channel = channel(first);
      var bisects = BisectServiceGrpc.newBlockingStub(channel);
      bisects.startBisect(BisectServiceTest.request("b-r", 8));
      Bisect partial = awaitBisect(bisects, b -> b.getProbesCount() == 1 && b.hasInFlight());
      firstBefore = client(channel).getExperiment(GetExperimentRequest.newBuilder()
          .setExperimentId(partial.getProbes(0).getExperimentId()).build());
      assertThat(firstBefore.getState()).isEqualTo("completed");
      channel.shutdownNow();
    }

    try (ControllerNode second = ControllerNodeTest.inProcess(settings);
        FakeWorker worker = new FakeWorker(second, "h1", 0.7, Integer.MAX_VALUE, false)
            .withSlowArms(SLOW_FROM_3).start()) {
      ManagedChannel channel = channel(second);
      // Only the bisect submits its last probe's experiment: its appearance shows the bisect went
      // on by itself (the bisect is not asked before).
      Experiment last = awaitExperiment(client(channel), "b-r-0-vs-2", e -> e.getState().equals("completed"));
      var bisects = BisectServiceGrpc.newBlockingStub(channel);
      Bisect done = awaitBisect(bisects, b -> !b.getState().equals("running"));

      assertThat(done.getState()).isEqualTo("found");
      assertThat(done.getFirstBad()).isEqualTo(3);
      assertThat(done.getProbesList()).extracting(BisectProbe::getExperimentId)
          .containsExactly("b-r-0-vs-7", "b-r-0-vs-3", "b-r-0-vs-1", "b-r-0-vs-2");
      assertThat(last.getState()).isEqualTo("completed");
      Experiment firstAfter = client(channel).getExperiment(GetExperimentRequest.newBuilder()
          .setExperimentId("b-r-0-vs-7").build());
      assertThat(firstAfter).isEqualTo(firstBefore);
      assertThat(bisects.listBisects(ListBisectsRequest.getDefaultInstance()).getBisectsList())
          .extracting(BisectSummary::getBisectId, BisectSummary::getState, BisectSummary::getProbesDone,
              BisectSummary::getMaxProbes, BisectSummary::getKernels)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("b-r", "found", 4, 4, 8));
      channel.shutdownNow();
    }
  }

  private static Bisect awaitBisect(BisectServiceGrpc.BisectServiceBlockingStub bisects, Predicate<Bisect> done) {
    return Eventually.until("bisect b-r", Duration.ofSeconds(40),
        () -> bisects.getBisect(GetBisectRequest.newBuilder().setBisectId("b-r").build()), done);
  }

  /** The experiment once submitted and {@code done}; NOT_FOUND until the bisect submits it. */
  private static Experiment awaitExperiment(dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc.ExperimentServiceBlockingStub
      experiments, String id, Predicate<Experiment> done) {
    return Eventually.until("experiment " + id, Duration.ofSeconds(40),
        () -> experiments.getExperiment(GetExperimentRequest.newBuilder().setExperimentId(id).build()), done,
        e -> e instanceof StatusRuntimeException s && s.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND);
  }
}
