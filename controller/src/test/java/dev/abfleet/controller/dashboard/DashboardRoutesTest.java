package dev.abfleet.controller.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.BootSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HostNoise;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.Policy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's routes over a real loopback socket, answering from fixed experiments and hosts:
 * token checks (header and login cookie), 404s that say what to do, and the JSON's shape.
 */
class DashboardRoutesTest {
  private static final String TOKEN = "abf_0123456789ab.secret";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static ActorSystem<Void> system;
  private static Dashboard open;
  private static Dashboard guarded;
  private final HttpClient http = HttpClient.newHttpClient();

  static Experiment experiment(String id, String state, int done, String overall) {
    return Experiment.newBuilder().setExperimentId(id).setState(state).setPairsDone(done)
        .setPairsWanted(10).setSeed(7).setOverall(overall)
        .setGate(overall.equals("improved") ? "pass" : "").setEtaSeconds(state.equals("running") ? 130 : 0)
        .setSpec(ExperimentSpec.newBuilder().setName("stat <fast>")
            .addArms(Arm.newBuilder().setName("base").setRole("baseline"))
            .addArms(Arm.newBuilder().setName("cand").setRole("candidate"))
            .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat"))
            .setPolicy(Policy.newBuilder().setNoiseThreshold(0.02).setAlpha(0.05).setPairs(10)
                .addGatingMetrics("metadata_stat").addLooks(5).addLooks(10)))
        .addComparisons(Comparison.newBuilder().setArm("cand").setMetric("metadata_stat")
            .setUnit("ops/s").setBetter("higher").setNPairs(done).setChange(0.058)
            .setCiLow(0.04).setCiHigh(Double.NaN).setVerdict(overall).setGating(true))
        .build();
  }

  /** A nightly run on sim hosts, booting a kernel named vmlinuz-6.1-sim. */
  static Experiment simNightly() {
    Experiment e = experiment("e-sim", "cancelled", 3, "inconclusive");
    ExperimentSpec.Builder spec = e.getSpec().toBuilder().setPriority("nightly")
        .setSelector(HostSelector.newBuilder().setHypervisor("sim"));
    spec.getArmsBuilder(1).setBoot(BootSpec.newBuilder().setKernel(
        Artifact.newBuilder().setUri("/k/vmlinuz-6.1-sim").setSha256("ab12")));
    return e.toBuilder().setSpec(spec).build();
  }

  static final List<Experiment> EXPERIMENTS = List.of(
      experiment("e-run", "running", 4, ""),
      experiment("e-done", "completed", 10, "improved"),
      simNightly());

  static final List<Host> HOSTS = List.of(
      Host.newBuilder().setHostId("h-bad").setState("quarantined").setArch("x86_64")
          .addHypervisors(HypervisorCapability.newBuilder().setName("sim").addAccelerators("sim"))
          .setInfraFailures(3).setStateReason("3 INFRA failures in a row; last: qemu: not found")
          .setConnected(true).build(),
      Host.newBuilder().setHostId("h-good").setState("leased").setArch("x86_64")
          .setLeasedTo("e-run").setLeaseEpoch(4).setConnected(true).setHeartbeatAgeMs(830)
          .setNoise(HostNoise.newBuilder().setMedianResidualPercent(0.8412).setPairs(24))
          .setInterference(dev.abfleet.proto.fleet.v1.HostInterference.newBuilder().setBoots(10).setInterfered(4)
              .setNoisyReason("4 of its last 10 boots interfered")).build(),
      Host.newBuilder().setHostId("h-out").setState("draining").setArch("x86_64")
          .setDrainReason("disk <swap> RMA-42").setConnected(true).build());

  /** Answers from {@link #EXPERIMENTS} and {@link #HOSTS}. */
  static final class FixedFleet extends FleetReader {
    @Override
    public boolean canList() {
      return true;
    }

    @Override
    public CompletionStage<List<Experiment>> experiments() {
      return CompletableFuture.completedFuture(EXPERIMENTS);
    }

    @Override
    public CompletionStage<Optional<Experiment>> experiment(String id) {
      return CompletableFuture.completedFuture(
          EXPERIMENTS.stream().filter(e -> e.getExperimentId().equals(id)).findFirst());
    }

    @Override
    public CompletionStage<List<Host>> hosts() {
      return CompletableFuture.completedFuture(HOSTS);
    }
  }

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "dashboard-test");
    open = Dashboard.start(system, "127.0.0.1", 0, new FixedFleet(), h -> true, Optional.empty(),
        Optional.empty());
    guarded = Dashboard.start(system, "127.0.0.1", 0, new FixedFleet(),
        h -> h.equals(Optional.of("Bearer " + TOKEN)), Optional.empty(), Optional.empty());
  }

  @AfterAll
  static void stop() {
    open.close();
    guarded.close();
    system.terminate();
  }

  private HttpResponse<String> get(Dashboard d, String path, String... headers) throws Exception {
    var b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + d.port() + path));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void refusesEveryPageAndEndpointWithoutAReadToken() throws Exception {
    for (String path : List.of("/", "/hosts", "/experiments/e-run", "/api/experiments",
        "/api/experiments/e-run", "/api/hosts")) {
      HttpResponse<String> r = get(guarded, path);
      assertThat(r.statusCode()).as(path).isEqualTo(401);
      assertThat(r.body()).as(path).doesNotContain("e-done", "h-bad");
    }
    assertThat(get(guarded, "/").body()).contains("<form method=\"post\" action=\"/login\">");
    assertThat(JSON.readTree(get(guarded, "/api/hosts").body()).get("error").asText())
        .contains("Authorization: Bearer <token>");
    assertThat(get(guarded, "/api/hosts", "Authorization", "Bearer abf_wrong").statusCode())
        .isEqualTo(401);
    assertThat(get(guarded, "/api/hosts", "Authorization", "Bearer " + TOKEN).statusCode())
        .isEqualTo(200);
  }

  @Test
  void loginWithAReadTokenSetsAStrictHttpOnlyCookieThatOpensThePages() throws Exception {
    HttpResponse<String> bad = http.send(login("abf_wrong"), HttpResponse.BodyHandlers.ofString());
    assertThat(bad.statusCode()).isEqualTo(401);
    assertThat(bad.headers().firstValue("Set-Cookie")).isEmpty();

    HttpResponse<String> ok = http.send(login(TOKEN), HttpResponse.BodyHandlers.ofString());
    assertThat(ok.statusCode()).isEqualTo(303);
    assertThat(ok.headers().firstValue("Location")).hasValue("/");
    String cookie = ok.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie).startsWith(DashboardRoutes.COOKIE + "=" + TOKEN).contains("HttpOnly")
        .contains("SameSite=Strict").doesNotContain("Secure");

    HttpResponse<String> page = get(guarded, "/", "Cookie", cookie.split(";")[0]);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("e-done");
  }

  private HttpRequest login(String token) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + guarded.port() + "/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("token=" + token)).build();
  }

  @Test
  void unknownExperimentIsNotFoundAndPointsToTheList() throws Exception {
    HttpResponse<String> page = get(open, "/experiments/e-nope");
    assertThat(page.statusCode()).isEqualTo(404);
    assertThat(page.body()).contains("no experiment &#39;e-nope&#39; on this controller",
        "listed at /");
    HttpResponse<String> api = get(open, "/api/experiments/e-nope");
    assertThat(api.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(api.body()).get("error").asText())
        .isEqualTo("no experiment 'e-nope' on this controller; the experiments are listed at /"
            + " (or with abfleet experiments list)");
  }

  @Test
  void experimentsJsonCarriesProgressEstimatesAndVerdicts() throws Exception {
    HttpResponse<String> r = get(open, "/api/experiments");
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode root = JSON.readTree(r.body());
    assertThat(root.get("listable").asBoolean()).isTrue();
    JsonNode running = root.get("experiments").get(0);
    assertThat(running.get("id").asText()).isEqualTo("e-run");
    assertThat(running.get("pairs_done").asInt()).isEqualTo(4);
    assertThat(running.get("pairs_wanted").asInt()).isEqualTo(10);
    assertThat(running.get("eta_seconds").asLong()).isEqualTo(130);
    assertThat(running.get("look").asText()).isEqualTo("look 1 of 2 at 5 pairs");
    JsonNode estimate = running.get("estimates").get(0);
    assertThat(estimate.get("metric").asText()).isEqualTo("metadata_stat");
    assertThat(estimate.get("change").asDouble()).isEqualTo(0.058);
    assertThat(estimate.get("ci_high").isNull()).isTrue();
    assertThat(root.get("experiments").get(1).get("overall").asText()).isEqualTo("improved");
    assertThat(root.get("experiments").get(1).get("gate").asText()).isEqualTo("pass");
    assertThat(running.get("gate").asText()).isEmpty();
  }

  @Test
  void hostsJsonCarriesStateClassLeaseAndQuarantineReason() throws Exception {
    JsonNode hosts = JSON.readTree(get(open, "/api/hosts").body()).get("hosts");
    assertThat(hosts).hasSize(3);
    JsonNode bad = hosts.get(0);
    assertThat(bad.get("host_id").asText()).isEqualTo("h-bad");
    assertThat(bad.get("state").asText()).isEqualTo("quarantined");
    assertThat(bad.get("infra_failures").asInt()).isEqualTo(3);
    assertThat(bad.get("reason").asText()).startsWith("3 INFRA failures in a row");
    assertThat(bad.get("hypervisors").get(0).get("name").asText()).isEqualTo("sim");
    assertThat(hosts.get(1).get("leased_to").asText()).isEqualTo("e-run");
    assertThat(hosts.get(1).get("lease_epoch").asLong()).isEqualTo(4);
    assertThat(hosts.get(2).get("drain_reason").asText()).isEqualTo("disk <swap> RMA-42");
  }

  @Test
  void pagesAreServerRenderedAndOnlyRunningOnesRefreshThemselves() throws Exception {
    HttpResponse<String> front = get(open, "/");
    assertThat(front.headers().firstValue("Content-Security-Policy").orElseThrow())
        .contains("default-src 'none'", "connect-src 'self'");
    assertThat(front.body()).contains("<td class=\"pairs\" data-pairs-done=\"4\">4 / 10",
        "stat &lt;fast&gt;", "<span class=\"verdict improved\">improved</span>")
        .doesNotContain("href=\"/nightly\"");

    String running = get(open, "/experiments/e-run").body();
    assertThat(running).contains("<body data-live=\"true\">", "running: pairs 4/10, look 1 of 2"
        + " at 5 pairs, ETA 2m 10s", "<script>");
    String done = get(open, "/experiments/e-done").body();
    assertThat(done).contains("<body data-live=\"false\">", "<h2>metadata_stat (ops/s)</h2>").doesNotContain("<script>");

    assertThat(get(open, "/hosts").body()).contains("<span class=\"state quarantined\">",
        "3 INFRA failures in a row; last: qemu: not found", "sim/sim x86_64");
    assertThat(get(open, "/nightly").statusCode()).isEqualTo(404);
  }

  @Test
  void marksSimulationExperimentsWithABadgeAndInTheJson() throws Exception {
    String front = get(open, "/").body();
    assertThat(row(front, "experiment-e-sim")).contains(
        "<span class=\"badge simulation\"", ">SIMULATION</span>");
    assertThat(row(front, "experiment-e-done")).doesNotContain("SIMULATION");
    JsonNode list = JSON.readTree(get(open, "/api/experiments").body()).get("experiments");
    assertThat(list.get(2).get("id").asText()).isEqualTo("e-sim");
    assertThat(list.get(2).get("simulation").asBoolean()).isTrue();
    assertThat(list.get(1).get("simulation").asBoolean()).isFalse();
  }

  @Test
  void runningExperimentSaysSoFarWithItsOneSidedInterval() throws Exception {
    // ci_low 4%, ci_high NaN: the lower bound is all the interval there is.
    assertThat(row(get(open, "/").body(), "experiment-e-run"))
        .contains("metadata_stat +5.8% [≥ +4.0%] so far");
    String page = get(open, "/experiments/e-run").body();
    assertThat(page).contains("<span class=\"verdict interim\">so far: undecided (interim, 4 of"
        + " 10 pairs)</span></h1>").doesNotContain("— <span class=\"verdict inconclusive\">");
    assertThat(get(open, "/experiments/e-done").body())
        .contains("— <span class=\"verdict improved\">improved</span></h1>");
  }

  @Test
  void filtersHideRowsByStateScheduleAndKernel() throws Exception {
    String running = get(open, "/?state=running").body();
    assertThat(running).contains("id=\"experiment-e-run\"", "1 of 3 listed experiments match")
        .doesNotContain("id=\"experiment-e-done\"", "id=\"experiment-e-sim\"",
            "<option>running</option>")
        .contains("<option selected>running</option>");
    String nightly = get(open, "/?schedule=nightly").body();
    assertThat(nightly).contains("id=\"experiment-e-sim\"")
        .doesNotContain("id=\"experiment-e-run\"", "id=\"experiment-e-done\"");
    String onDemand = get(open, "/?schedule=on-demand&state=completed").body();
    assertThat(onDemand).contains("id=\"experiment-e-done\"")
        .doesNotContain("id=\"experiment-e-run\"", "id=\"experiment-e-sim\"");
    String kernel = get(open, "/?kernel=VMLINUZ-6.1").body();
    assertThat(kernel).contains("id=\"experiment-e-sim\"", "value=\"VMLINUZ-6.1\"")
        .doesNotContain("id=\"experiment-e-run\"");
    assertThat(get(open, "/").body()).contains("id=\"experiment-e-run\"",
        "id=\"experiment-e-done\"", "id=\"experiment-e-sim\"").doesNotContain("listed"
        + " experiments match");
  }

  @Test
  void rejectsAnUnknownStateFilterNamingTheStatesItTakes() throws Exception {
    HttpResponse<String> r = get(open, "/?state=finished");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("unknown state &#39;finished&#39;; expected one of running,"
        + " queued, completed, cancelled, failed, or none for any", "id=\"experiment-e-done\"");
  }

  /** The table row with this id. */
  private static String row(String html, String rowId) {
    int at = html.indexOf("<tr id=\"" + rowId + "\">");
    assertThat(at).as("row %s", rowId).isNotNegative();
    return html.substring(at, html.indexOf("</tr>", at));
  }

  @Test
  void hostsPageShowsCurrentBootAndDrainReasonButNoLeaseEpoch() throws Exception {
    String page = get(open, "/hosts").body();
    assertThat(page).contains("<th scope=\"col\">Current boot</th>",
        "<th scope=\"col\">Drain reason</th>").doesNotContain("epoch");
    assertThat(row(page, "host-h-good")).contains(
        "<td class=\"left current\"><a href=\"/experiments/e-run\">e-run</a></td>");
    assertThat(row(page, "host-h-bad")).contains("<td class=\"left current\"><span"
        + " class=\"muted\">idle</span></td>");
    assertThat(row(page, "host-h-out")).contains(
        "<td class=\"left drain-reason\">disk &lt;swap&gt; RMA-42</td>");
  }

  @Test
  void hostsPageShowsHeartbeatAgeAndPairedNoiseOrADashWhenUnknown() throws Exception {
    String page = get(open, "/hosts").body();
    assertThat(page).contains("<th scope=\"col\">Last heartbeat</th>",
        "<th scope=\"col\">Paired noise</th>");
    assertThat(row(page, "host-h-good")).contains("<td class=\"heartbeat\">0.8 s ago</td>",
        "0.84% over 24 pairs</span></td>", "over the host's newest 24 A/B pairs");
    assertThat(row(page, "host-h-bad")).contains("<td class=\"heartbeat\">-</td>",
        "<td class=\"noise\">-</td>");
  }

  @Test
  void hostsJsonCarriesHeartbeatAgeAndNoiseOrNullWhenUnknown() throws Exception {
    JsonNode hosts = JSON.readTree(get(open, "/api/hosts").body()).get("hosts");
    JsonNode good = hosts.get(1);
    assertThat(good.get("heartbeat_age_ms").asLong()).isEqualTo(830);
    assertThat(good.get("noise").get("median_residual_percent").asDouble()).isEqualTo(0.8412);
    assertThat(good.get("noise").get("pairs").asInt()).isEqualTo(24);
    assertThat(hosts.get(0).get("heartbeat_age_ms").isNull()).isTrue();
    assertThat(hosts.get(0).get("noise").isNull()).isTrue();
  }

  @Test
  void aNoisyHostIsFlaggedWithItsReasonOnThePageAndInTheJson() throws Exception {
    String page = get(open, "/hosts").body();
    assertThat(page).contains("<th scope=\"col\">Interfered boots</th>");
    assertThat(row(page, "host-h-good")).contains("<span class=\"state noisy\">noisy</span>",
        ">4 of 10</span></td>", "noisy: 4 of its last 10 boots interfered");
    assertThat(row(page, "host-h-bad")).doesNotContain("noisy").contains("<td class=\"interference\">-</td>");

    JsonNode hosts = JSON.readTree(get(open, "/api/hosts").body()).get("hosts");
    assertThat(hosts.get(1).at("/interference/boots").asInt()).isEqualTo(10);
    assertThat(hosts.get(1).at("/interference/interfered").asInt()).isEqualTo(4);
    assertThat(hosts.get(1).at("/interference/noisy_reason").asText()).isEqualTo("4 of its last 10 boots interfered");
    assertThat(hosts.get(0).get("interference").isNull()).isTrue();
  }
}
