package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.testkit.Eventually;
import io.grpc.ManagedChannel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Interfered boots reach the host listing through the worker edge: a worker whose reports are
 * all interfered is flagged noisy, a quiet one beside it is not, and both keep working.
 */
class NoisyHostTest extends ControllerNodeTest {
  @Test
  void aHostWhoseBootsAreOftenInterferedIsListedNoisyWithTheReason() throws Exception {
    try (ControllerNode node = ControllerNodeTest.inProcess(fastSettings())) {
      ManagedChannel channel = channel(node);
      var client = client(channel);
      FakeWorker busy = FakeWorker.connect(node, "busy", 1.0).interfered(true);
      Eventually.await("the busy host", Duration.ofSeconds(20),
          () -> client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount() == 1);
      String id = submit(client, "noisy", 6);
      awaitExperiment(client, id, e -> e.getState().equals("completed"), Duration.ofSeconds(60));
      busy.close();
      FakeWorker quiet = FakeWorker.connect(node, "quiet", 1.0);
      String calmId = submit(client, "calm", 6);
      awaitExperiment(client, calmId, e -> e.getState().equals("completed"), Duration.ofSeconds(60));

      Eventually.await("busy host flagged", Duration.ofSeconds(20), () -> !host(client, "busy")
          .getInterference().getNoisyReason().isEmpty());
      Host noisy = host(client, "busy");
      assertThat(noisy.getInterference().getInterfered()).isEqualTo(noisy.getInterference().getBoots())
          .isGreaterThanOrEqualTo(3);
      assertThat(noisy.getInterference().getNoisyReason()).contains("boots interfered");
      assertThat(noisy.getState()).as("a flag, not a quarantine").isNotEqualTo("quarantined");
      Host calm = host(client, "quiet");
      assertThat(calm.getInterference().getInterfered()).isZero();
      assertThat(calm.getInterference().getBoots()).isPositive();
      assertThat(calm.getInterference().getNoisyReason()).isEmpty();
      quiet.close();
      channel.shutdownNow();
    }
  }

  private static Host host(dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc.ExperimentServiceBlockingStub client,
      String id) {
    return client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsList().stream()
        .filter(h -> h.getHostId().equals(id)).findFirst().orElseThrow();
  }
}
