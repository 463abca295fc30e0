package dev.abfleet.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ClusterFormationTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static int managementPort;
  private static ControllerNode node;

  @BeforeAll
  static void startNodeWithManagement() throws IOException {
    managementPort = freePort();
    node = ControllerNode.start(ControllerSettings.inMemory(),
        ClusterFormation.seedNodesWithManagement(managementPort));
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void readyAndAliveOnceUpAndServingGrpc() throws Exception {
    assertThat(get(ClusterFormation.READINESS_PATH).statusCode()).isEqualTo(200);
    assertThat(get(ClusterFormation.LIVENESS_PATH).statusCode()).isEqualTo(200);
  }

  @Test
  void notReadyButAliveWhileGrpcIsNotServing() throws Exception {
    GrpcServing serving = GrpcServing.get(node.system());
    serving.set(false);
    try {
      HttpResponse<String> ready = get(ClusterFormation.READINESS_PATH);
      assertThat(ready.statusCode()).isEqualTo(500);
      assertThat(ready.body()).startsWith("Not Healthy");
      assertThat(get(ClusterFormation.LIVENESS_PATH).statusCode()).isEqualTo(200);
    } finally {
      serving.set(true);
    }
  }

  @Test
  void membersAreReadOnly() throws Exception {
    HttpResponse<String> members = get("/cluster/members");
    assertThat(members.statusCode()).isEqualTo(200);
    assertThat(members.body()).contains(node.nodeAddress()).contains("\"status\":\"Up\"");
    HttpResponse<String> leave = HTTP.send(HttpRequest.newBuilder(uri("/cluster/members/" + node.nodeAddress()))
        .DELETE().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(leave.statusCode()).isNotEqualTo(200);
  }

  @Test
  void kubernetesDiscoveryNeedsAManagementPortAndASelector() {
    assertThatThrownBy(() -> new ClusterFormation(ClusterFormation.Discovery.KUBERNETES_API,
        java.util.OptionalInt.empty(), "app=x", 2)).hasMessageContaining("needs a management port");
    assertThatThrownBy(() -> ClusterFormation.kubernetesApi(7626, " ", 2))
        .hasMessageContaining("needs a pod label selector");
  }

  @Test
  void kubernetesDiscoveryNeitherJoinsSeedsNorItself() {
    ClusterFormation k8s = ClusterFormation.kubernetesApi(7626, "app=abfleet-controller", 3);
    var config = k8s.config(ControllerSettings.inMemory().withCluster("10.1.2.3", 2552,
        java.util.List.of("pekko://abfleet@other:2552")));
    assertThat(k8s.bootstraps()).isTrue();
    assertThat(config.getStringList("pekko.cluster.seed-nodes")).isEmpty();
    assertThat(config.getString("pekko.management.cluster.bootstrap.contact-point-discovery.discovery-method"))
        .isEqualTo("kubernetes-api");
    assertThat(config.getInt("pekko.management.cluster.bootstrap.contact-point-discovery.required-contact-point-nr"))
        .isEqualTo(3);
    assertThat(config.getString("pekko.management.http.hostname")).isEqualTo("10.1.2.3");
    assertThat(config.getString("pekko.discovery.kubernetes-api.pod-label-selector"))
        .isEqualTo("app=abfleet-controller");
  }

  @Test
  void managementWithSeedNodesBindsLoopbackEvenWhenGrpcListensEverywhere() {
    var config = ClusterFormation.seedNodesWithManagement(7626)
        .config(ControllerSettings.inMemory().withGrpc("0.0.0.0", 50051));
    assertThat(config.getString("pekko.management.http.bind-hostname")).isEqualTo("127.0.0.1");
    assertThat(config.getString("pekko.management.http.routes.cluster-bootstrap")).isEmpty();
  }

  @Test
  void managementWithKubernetesDiscoveryServesNoClusterRoutes() {
    var config = ClusterFormation.kubernetesApi(7626, "app=abfleet-controller", 3)
        .config(ControllerSettings.inMemory().withGrpc("0.0.0.0", 50051));
    // Peers probe /bootstrap/seed-nodes and the kubelet /ready on the pod IP; /cluster/* is not served.
    assertThat(config.getString("pekko.management.http.bind-hostname")).isEqualTo("0.0.0.0");
    assertThat(config.getString("pekko.management.http.routes.cluster-management")).isEmpty();
  }

  @Test
  void servesNoBootstrapRoutesWithSeedNodes() throws Exception {
    assertThat(get("/bootstrap/seed-nodes").statusCode()).isEqualTo(404);
  }

  @Test
  void kubernetesDiscoveryOutsideAPodFailsNamingTheServiceAccount() throws IOException {
    Assumptions.assumeFalse(Files.exists(Path.of(ClusterFormation.SERVICE_ACCOUNT_DIR)), "running inside a pod");
    ClusterFormation k8s = ClusterFormation.kubernetesApi(freePort(), "app=abfleet-controller", 3);
    assertThatThrownBy(() -> ControllerNode.start(ControllerSettings.inMemory(), k8s))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("cannot start cluster bootstrap through the Kubernetes API")
        .hasMessageContaining(ClusterFormation.SERVICE_ACCOUNT_DIR);
  }

  private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + managementPort + path);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
