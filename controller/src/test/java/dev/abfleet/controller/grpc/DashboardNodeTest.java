package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import io.grpc.ManagedChannel;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The dashboard as a controller node serves it: off by default, on when given a port. */
class DashboardNodeTest extends ControllerNodeTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void offByDefault() {
    try (ControllerNode node = ControllerNode.start(fastSettings())) {
      assertThat(node.dashboardPort()).isZero();
    }
  }

  @Test
  void aNodeGivenAPortServesItsHostsAndSaysAnInMemoryJournalCannotBeListed() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (ControllerNode node = ControllerNode.start(fastSettings().withDashboardPort(port))) {
      ManagedChannel channel = channel(node);
      FakeWorker worker = FakeWorker.connect(node.grpcPort(), "shown", 1.0);
      LimitsTest.await(() -> client(channel).listHosts(ListHostsRequest.getDefaultInstance())
          .getHostsCount() == 1);

      assertThat(node.dashboardPort()).isEqualTo(port);
      HttpResponse<String> hosts = get(port, "/api/hosts");
      assertThat(hosts.statusCode()).isEqualTo(200);
      assertThat(hosts.body()).contains("\"host_id\":\"shown\"", "\"state\":\"idle\"");
      assertThat(get(port, "/hosts").body()).contains("<tr id=\"host-shown\">");
      assertThat(get(port, "/").body()).contains("keeps its journal in memory, which cannot be"
          + " listed");
      assertThat(get(port, "/api/experiments/e-none").statusCode()).isEqualTo(404);
      worker.close();
      channel.shutdownNow();
    }
  }

  @Test
  void aTakenPortStopsTheStartWithTheKeyToChange() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      assertThatThrownBy(() -> ControllerNode.start(fastSettings()
          .withDashboardPort(taken.getLocalPort())))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("cannot serve the dashboard on 127.0.0.1:" + taken.getLocalPort())
          .hasMessageContaining("controller.dashboard_port");
    }
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
