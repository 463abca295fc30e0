package dev.abfleet.controller.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import dev.abfleet.testkit.PrometheusText;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** /metrics scraped over a real loopback socket. */
class MetricsEndpointTest {
  final ActorTestKit kit = ActorTestKit.create(ConfigFactory.parseString(
      "pekko.actor.provider = local"));
  final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void servesTheCountersAsPrometheusText() throws Exception {
    ControllerMetrics metrics = new ControllerMetrics();
    metrics.rejectReport("host-1", "stale_epoch");
    metrics.rejectReport("host-1", "stale_epoch");
    metrics.rejectWorkerIdentity("host-\"2\"");
    metrics.rateLimited("call");
    metrics.callEnded("fleet.v1.ExperimentService/ListHosts", "OK", Duration.ofMillis(3));
    metrics.hostConnected();
    metrics.bootStarted("qemu", "x86_64");
    metrics.bootFinished("qemu", "x86_64", true, Duration.ofMillis(3_500));
    metrics.bootFinished("qemu", "x86_64", false, null);
    metrics.experimentStalled();
    metrics.fleetSource(() -> CompletableFuture.completedFuture(new FleetGauges(
        Map.of("idle", 2, "leased", 1, "quarantined", 0), 1, Map.of("pr", 0, "adhoc", 3), 0)));
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(kit.system(), "127.0.0.1", 0, metrics,
        MetricsEndpoint.ALLOW_ALL)) {
      HttpResponse<String> scrape = get(endpoint.port(), Optional.empty());

      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(
          type -> assertThat(type).startsWith("text/plain").contains("version=0.0.4"));
      assertThat(scrape.body().lines()).contains(
          "# TYPE abfleet_rejected_reports_total counter",
          "abfleet_rejected_reports_total{host=\"host-1\",reason=\"stale_epoch\"} 2.0",
          "abfleet_rejected_reports_total{host=\"host-\\\"2\\\"\",reason=\"wrong_identity\"} 1.0",
          "abfleet_rate_limited_total{kind=\"call\"} 1.0",
          "abfleet_grpc_calls_total{code=\"OK\",method=\"fleet.v1.ExperimentService/ListHosts\"} 1.0",
          "abfleet_connected_hosts 1.0",
          "abfleet_boots_started_total{arch=\"x86_64\",hypervisor=\"qemu\"} 1.0",
          "abfleet_boots_finished_total{arch=\"x86_64\",hypervisor=\"qemu\",outcome=\"failed\"} 1.0",
          "abfleet_boots_finished_total{arch=\"x86_64\",hypervisor=\"qemu\",outcome=\"ok\"} 1.0",
          "abfleet_hosts{state=\"idle\"} 2.0",
          "abfleet_leases 1.0",
          "abfleet_queue_depth{priority=\"adhoc\"} 3.0",
          "# TYPE abfleet_experiment_stalls_total counter",
          "abfleet_experiment_stalls_total 1.0");

      // Read back by the Prometheus project's own parser: the types and a histogram's buckets.
      PrometheusText.Parsed parsed = PrometheusText.parse(scrape.body());
      assertThat(parsed.types()).containsEntry("abfleet_boot_duration_seconds", "histogram")
          .containsEntry("abfleet_grpc_call_duration_seconds", "histogram")
          .containsEntry("abfleet_boots_started", "counter")
          .containsEntry("abfleet_hosts", "gauge");
      assertThat(parsed.named("abfleet_boot_duration_seconds_bucket"))
          .filteredOn(s -> s.labels().get("le").equals("5.0")).singleElement()
          .extracting(PrometheusText.Sample::value).isEqualTo(1.0);
      assertThat(parsed.named("abfleet_boot_duration_seconds_bucket"))
          .filteredOn(s -> s.labels().get("le").equals("2.0")).singleElement()
          .extracting(PrometheusText.Sample::value).isEqualTo(0.0);
      assertThat(parsed.named("abfleet_boot_duration_seconds_sum")).singleElement()
          .extracting(PrometheusText.Sample::value).isEqualTo(3.5);
    }
  }

  @Test
  void aSchedulerThatDoesNotAnswerShowsAsAnUnknownView() throws Exception {
    ControllerMetrics metrics = new ControllerMetrics();
    metrics.fleetSource(() -> CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException("ask")));
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(kit.system(), "127.0.0.1", 0, metrics,
        MetricsEndpoint.ALLOW_ALL)) {
      HttpResponse<String> scrape = get(endpoint.port(), Optional.empty());

      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.body().lines()).contains("abfleet_fleet_view_age_seconds -1.0");
    }
  }

  @Test
  void refusesAScrapeTheAccessCheckDenies() throws Exception {
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(kit.system(), "127.0.0.1", 0,
        new ControllerMetrics(), header -> header.equals(Optional.of("Bearer good")))) {
      HttpResponse<String> anonymous = get(endpoint.port(), Optional.empty());
      HttpResponse<String> wrong = get(endpoint.port(), Optional.of("Bearer bad"));
      HttpResponse<String> good = get(endpoint.port(), Optional.of("Bearer good"));

      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(anonymous.body()).contains("read role");
      assertThat(wrong.statusCode()).isEqualTo(401);
      assertThat(good.statusCode()).isEqualTo(200);
      assertThat(good.body()).contains("abfleet_connected_hosts 0.0");
    }
  }

  private HttpResponse<String> get(int port, Optional<String> authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"));
    authorization.ifPresent(value -> request.header("Authorization", value));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
