package dev.abfleet.controller.grpc;

import dev.abfleet.testkit.Eventually;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RestartTest extends ControllerNodeTest {

  @Test
  void experimentFinishesAfterAControllerRestartOnTheSameStore(@TempDir Path dir) throws Exception {
    ControllerSettings settings = fastSettings()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    long epochBefore;
    try (ControllerNode first = ControllerNodeTest.inProcess(settings);
        FakeWorker stalling = new FakeWorker(first, "h1", 0.7, 2, false).start()) {
      ManagedChannel channel = channel(first);
      submit(client(channel), "e-restart", 6);
      Experiment partial = awaitExperiment(client(channel), "e-restart",
          e -> e.getPairsDone() == 2 && stalling.assignments.size() == 3, Duration.ofSeconds(30));
      epochBefore = partial.getBootsList().stream().mapToLong(Boot::getLeaseEpoch).max().orElseThrow();
      channel.shutdownNow();
    }

    try (ControllerNode second = ControllerNodeTest.inProcess(settings);
        FakeWorker worker = FakeWorker.connect(second, "h1", 0.7)) {
      // Nobody asks about the experiment: it must wake up by itself and get hosts.
      Eventually.await("blocks after restart", java.time.Duration.ofSeconds(10), () -> !worker.assignments.isEmpty());
      ManagedChannel channel = channel(second);
      Experiment done = awaitExperiment(client(channel), "e-restart",
          e -> e.getState().equals("completed"), Duration.ofSeconds(30));
      channel.shutdownNow();

      assertPairsBackToBack(done);
      assertThat(done.getRetriedBlocks()).isEqualTo(1);
      assertThat(worker.assignments).allSatisfy(a -> assertThat(a.getLeaseEpoch()).isGreaterThan(epochBefore + 1));
      assertThat(comparison(done, "metadata_stat").getVerdict()).isEqualTo("regressed");
    }
  }
}
