package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import io.grpc.ManagedChannel;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A controller node's /metrics, scraped over HTTP while a worker and a client use it. */
class MetricsScrapeTest extends ControllerNodeTest {

  @Test
  void aNodeServesItsCountersAndASecondNodeOnTheSamePortStillServesGrpc() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (ControllerNode node = ControllerNode.start(fastSettings().withMetricsPort(port));
        ControllerNode second = ControllerNode.start(fastSettings().withMetricsPort(port))) {
      ManagedChannel channel = channel(node);
      FakeWorker worker = FakeWorker.connect(node.grpcPort(), "scraped", 1.0);
      LimitsTest.await(() -> client(channel).listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount() == 1);

      HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());

      assertThat(node.metricsPort()).isEqualTo(port);
      assertThat(scrape.statusCode()).isEqualTo(200);
      // The fleet's gauges are the scheduler's view, asked at the scrape.
      assertThat(scrape.body().lines()).contains("abfleet_connected_hosts 1.0",
              "abfleet_hosts{state=\"idle\"} 1.0", "abfleet_hosts{state=\"quarantined\"} 0.0",
              "abfleet_leases 0.0", "abfleet_queue_depth{priority=\"pr\"} 0.0",
              "abfleet_fleet_view_age_seconds 0.0")
          .anyMatch(l -> l.startsWith(
              "abfleet_grpc_calls_total{code=\"OK\",method=\"fleet.v1.ExperimentService/ListHosts\"} "))
          .anyMatch(l -> l.startsWith("abfleet_grpc_call_duration_seconds_bucket{code=\"OK\","
              + "method=\"fleet.v1.ExperimentService/ListHosts\",le=\"+Inf\"} "));
      // The port was taken: the second node says so in its log and serves gRPC all the same.
      assertThat(second.metricsPort()).isZero();
      ManagedChannel toSecond = channel(second);
      assertThat(client(toSecond).listHosts(ListHostsRequest.getDefaultInstance()).getHostsCount()).isZero();
      worker.close();
      toSecond.shutdownNow();
      channel.shutdownNow();
    }
  }

  @Test
  void theConnectedHostsGaugeFallsWhenAWorkerGoes() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (ControllerNode node = ControllerNode.start(fastSettings().withMetricsPort(port))) {
      ManagedChannel channel = channel(node);
      FakeWorker worker = FakeWorker.connect(node.grpcPort(), "leaving", 1.0);
      LimitsTest.await(() -> scrape(port).contains("abfleet_connected_hosts 1.0"));

      worker.close();

      LimitsTest.await(() -> scrape(port).contains("abfleet_connected_hosts 0.0"));
      channel.shutdownNow();
    }
  }

  private static java.util.List<String> scrape(int port) {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
          .build(), HttpResponse.BodyHandlers.ofString()).body().lines().toList();
    } catch (Exception e) {
      return java.util.List.of();
    }
  }
}
