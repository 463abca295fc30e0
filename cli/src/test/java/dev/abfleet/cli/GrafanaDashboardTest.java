package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.testkit.Ports;
import dev.abfleet.testkit.PrometheusText;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The controller's /metrics after a SIMULATED experiment (a real controller node, two sim
 * workers over loopback gRPC), read by the Prometheus project's own parser: it has every series
 * the operations issue lists, and the Grafana dashboard ({@code ops/grafana-dashboard.json})
 * queries only series and labels that exist.
 */
class GrafanaDashboardTest {
  private static final Pattern METRIC = Pattern.compile("\\babfleet_[a-z_]+");
  private static final Pattern BY = Pattern.compile("by \\(([^)]*)\\)");
  private static final Pattern MATCHER = Pattern.compile("([a-z_]+)(=~|!~|!=|=)\"");

  @TempDir Path home;

  @Test
  @Timeout(120)
  void theDashboardQueriesOnlySeriesAControllerServes() throws Exception {
    PrometheusText.Parsed scraped = scrapeAfterASimExperiment();

    for (String series : List.of("abfleet_hosts", "abfleet_leases", "abfleet_queue_depth",
        "abfleet_boots_started_total", "abfleet_boots_finished_total",
        "abfleet_boot_duration_seconds_bucket", "abfleet_rejected_reports_total",
        "abfleet_grpc_call_duration_seconds_bucket", "abfleet_grpc_calls_total",
        "abfleet_connected_hosts")) {
      assertThat(scraped.named(series)).as(series).isNotEmpty();
    }
    // Four pairs of sim boots (and a warm-up boot per host), all on the sim hypervisor.
    double started = scraped.named("abfleet_boots_started_total").stream()
        .mapToDouble(PrometheusText.Sample::value).sum();
    assertThat(started).isGreaterThanOrEqualTo(8);
    assertThat(scraped.named("abfleet_boots_started_total"))
        .allSatisfy(s -> assertThat(s.labels()).containsEntry("hypervisor", "sim"));
    assertThat(scraped.named("abfleet_queue_depth")).extracting(s -> s.labels().get("priority"))
        .contains("pr", "adhoc", "nightly");

    JsonNode dashboard = new ObjectMapper().readTree(Path.of("..", "ops", "grafana-dashboard.json").toFile());
    List<String> exprs = new ArrayList<>();
    dashboard.get("panels").forEach(p -> p.get("targets").forEach(t -> exprs.add(t.get("expr").asText())));
    assertThat(exprs).hasSizeGreaterThan(8);
    Set<String> served = new LinkedHashSet<>();
    scraped.samples().forEach(s -> served.add(s.name()));
    for (String expr : exprs) {
      Matcher m = METRIC.matcher(expr);
      List<String> used = new ArrayList<>();
      while (m.find()) {
        used.add(m.group());
      }
      assertThat(used).as(expr).isNotEmpty();
      for (String name : used) {
        assertThat(served).as("%s in %s is served", name, expr).contains(name);
        Set<String> labels = labelsOf(scraped, name);
        for (String label : labelsUsed(expr)) {
          if (!label.equals("le") && !label.equals("instance") && !scraped.named(name).isEmpty()) {
            assertThat(labels).as("label %s of %s in %s", label, name, expr).contains(label);
          }
        }
      }
    }
  }

  private PrometheusText.Parsed scrapeAfterASimExperiment() throws Exception {
    int metricsPort = Ports.freeLoopbackPort();
    try (ControllerNode controller = ControllerNode.start(ControllerSettings.inMemory()
        .withMetricsPort(metricsPort))) {
      String address = "127.0.0.1:" + controller.grpcPort();
      try (SimFleet fleet = SimFleet.start(address, 2, "sim-", SimModel.defaults().withTimeScale(0.001),
          Map.of(), home.resolve("workers"), r -> { })) {
        SimFleet.awaitHosts(address, 2, 30);
        String base = SimArtifacts.kernel(home.resolve("kernels"), "base", Map.of()).getUri();
        String cand = SimArtifacts.kernel(home.resolve("kernels"), "cand", Map.of("metadata_stat", 1.2)).getUri();
        AbCommand ab = new AbCommand();
        new CommandLine(ab).parseArgs("--controller", address, "--hypervisor", "sim", "--metrics",
            "metadata_stat", "--iterations", "3", "--seed", "7", "--pairs", "6",
            "--baseline", "base=" + base, "--candidate", "cand=" + cand);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = ab.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(ExitCodes.OK);
        // A sim fleet sends no stale report; a labelled counter shows no series before its first
        // count, so one refusal is counted here, as the worker service counts one.
        controller.metrics().rejectReport("sim-0001", "stale_epoch");
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        return PrometheusText.parse(scrape.body());
      }
    }
  }

  private static Set<String> labelsOf(PrometheusText.Parsed scraped, String name) {
    Set<String> labels = new LinkedHashSet<>();
    scraped.named(name).forEach(s -> labels.addAll(s.labels().keySet()));
    return labels;
  }

  private static Set<String> labelsUsed(String expr) {
    Set<String> labels = new LinkedHashSet<>();
    Matcher by = BY.matcher(expr);
    while (by.find()) {
      for (String l : by.group(1).split(",")) {
        labels.add(l.strip());
      }
    }
    Matcher m = MATCHER.matcher(expr);
    while (m.find()) {
      labels.add(m.group(1));
    }
    return labels;
  }
}
