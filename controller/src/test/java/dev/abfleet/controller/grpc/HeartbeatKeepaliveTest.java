package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.testkit.Eventually;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Heartbeats keep a session alive without reaching its actor (the stream notes when it last heard
 * the worker and the session's timer reads that), and a worker that falls silent on an open
 * stream is still cut off after the timeout.
 */
class HeartbeatKeepaliveTest extends ControllerNodeTest {
  @Test
  void heartbeatsAloneKeepASessionAndSilenceEndsIt() throws Exception {
    // Heartbeats every 100 ms from the fake worker; the controller's timeout is 1 s.
    try (ControllerNode node = ControllerNodeTest.inProcess(fastSettings())) {
      ManagedChannel channel = channel(node);
      var client = client(channel);
      FakeWorker alive = FakeWorker.connect(node, "alive", 1.0);
      FakeWorker hung = FakeWorker.connect(node, "hung", 1.0);
      Eventually.await("both hosts listed", Duration.ofSeconds(20), () -> hosts(client).size() == 2);

      hung.fallSilent();
      Eventually.await("the silent worker's stream ended", Duration.ofSeconds(20),
          () -> hung.streamError != null);
      assertThat(Status.fromThrowable(hung.streamError).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(hung.streamError).hasMessageContaining("no heartbeat for 1000 ms");
      Eventually.await("the silent host listed offline", Duration.ofSeconds(20),
          () -> state(client, "hung").equals("offline"));

      // Three more timeouts of heartbeats only: the session stays, on the same stream.
      Thread.sleep(3_000);
      assertThat(alive.streamError).isNull();
      assertThat(alive.streamCompleted).isFalse();
      assertThat(state(client, "alive")).isEqualTo("idle");
      alive.close();
      hung.close();
      channel.shutdownNow();
    }
  }

  private static String state(
      dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc.ExperimentServiceBlockingStub client, String id) {
    return hosts(client).stream().filter(h -> h.getHostId().equals(id)).findFirst().orElseThrow().getState();
  }

  private static List<Host> hosts(dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc.ExperimentServiceBlockingStub client) {
    return client.listHosts(ListHostsRequest.getDefaultInstance()).getHostsList();
  }
}
