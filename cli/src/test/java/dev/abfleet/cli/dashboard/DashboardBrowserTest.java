package dev.abfleet.cli.dashboard;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.cli.report.ChartProbe;
import dev.abfleet.cli.report.HeadlessChromium;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.schedule.FleetPolicy;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.testkit.PacedWorker;
import dev.abfleet.testkit.Ports;
import dev.abfleet.worker.HostFacts;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in a real browser (headless Chromium) against a controller with sim workers and
 * one host whose boots fail for the host's sake: the front page shows a running experiment's
 * pairs advance and then its verdict, the experiment page draws one point per boot, the hosts
 * page shows the broken host quarantined with its reason, and no page writes to the console.
 * Screenshots go to cli/target/screenshots; with {@code -Dabfleet.screenshots=DIR} (bin/screenshots)
 * the README's three are copied to DIR as well.
 */
class DashboardBrowserTest {
  private static final int PAIRS = 12;
  private static final int HEIGHT = 900;
  private static final Pattern PAIRS_DONE = Pattern.compile("data-pairs-done=\"(\\d+)\"");

  @TempDir Path home;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  @Timeout(240)
  void showsProgressThenVerdictTheReportAndAQuarantinedHost() throws Exception {
    HeadlessChromium browser = HeadlessChromium.require();
    // Two INFRA failures in a row quarantine; the cap lets one host of three go.
    ControllerSettings settings = ControllerSettings.inMemory()
        .withStore(ControllerSettings.Store.JDBC,
            ControllerSettings.h2FileUrl(home.resolve("store").resolve("controller")))
        .withFleetPolicy(new FleetPolicy(2, 0.5, Duration.ofMinutes(30), 2.0))
        .withDashboardPort(Ports.freeLoopbackPort());
    // Slow enough (about 0.9 s a boot) that 12 pairs on two hosts take several seconds.
    SimModel model = SimModel.defaults().withTimeScale(0.3);
    try (ControllerNode controller = ControllerNode.start(settings);
        // A host like a sim one whose every boot fails for the host's sake (INFRA), so it is
        // quarantined: the sim workers' injected failures are the arm's (a kernel panic).
        PacedWorker broken = new PacedWorker(controller.grpcPort(), "broken-1",
            PacedWorker.Identity.sim(HostFacts.probe().arch()), 0, run -> true).start();
        SimFleet fleet = SimFleet.start("127.0.0.1:" + controller.grpcPort(), 2, "sim-", model,
            Map.of(), home, r -> { });
        ExperimentClient client = new ExperimentClient("127.0.0.1:" + controller.grpcPort())) {
      SimFleet.awaitHosts("127.0.0.1:" + controller.grpcPort(), 3, 30);
      URI base = URI.create("http://127.0.0.1:" + controller.dashboardPort() + "/");
      String id = client.submit("dash-it", spec(home.resolve("kernels")));

      // While it runs: two loads of / see more pairs done the second time.
      int first = -1;
      int later = -1;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (later <= first && System.nanoTime() < deadline) {
        HeadlessChromium.Page front = load(browser, base, "dashboard-running");
        Integer done = pairsDone(front.dom(), id);
        if (done == null) {
          break;
        }
        if (first < 0 && done >= 1) {
          first = done;
          HeadlessChromium.Page live = load(browser, base.resolve("experiments/" + id),
              "experiment-running");
          assertThat(live.dom()).contains("<body data-live=\"true\">", "running: pairs ");
        } else if (first >= 0) {
          later = done;
        }
      }
      assertThat(first).as("pairs done at the first load of a running experiment").isPositive();
      assertThat(later).as("pairs done at a later load").isGreaterThan(first);

      Experiment done = client.watch(id, e -> { });
      assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
      assertThat(done.getOverall()).isEqualTo("regressed");

      HeadlessChromium.Page front = load(browser, base, "dashboard-done");
      String row = row(front.dom(), "experiment-" + id);
      assertThat(row).contains("<span class=\"verdict regressed\">regressed",
          "<span class=\"badge simulation\"", ">SIMULATION</span>");
      assertThat(pairsDone(front.dom(), id)).as("no longer in the running table").isNull();

      // The filter form, submitted as a browser would: a filter that does not match hides the
      // row, one that matches keeps it.
      assertThat(front.dom()).contains("<form id=\"filters\"");
      String hidden = load(browser, base.resolve("?state=running&schedule=&kernel="),
          "dashboard-filter-running").dom();
      assertThat(hidden).contains("0 of 1 listed experiments match")
          .doesNotContain("<tr id=\"experiment-" + id + "\">");
      assertThat(load(browser, base.resolve("?schedule=nightly"), "dashboard-filter-nightly")
          .dom()).doesNotContain("<tr id=\"experiment-" + id + "\">");
      String kept = load(browser, base.resolve("?state=completed&schedule=on-demand&kernel=slow"),
          "dashboard-filter-kernel").dom();
      row(kept, "experiment-" + id);
      assertThat(kept).contains("1 of 1 listed experiments match");

      HeadlessChromium.Page report = load(browser, base.resolve("experiments/" + id),
          "experiment-report");
      assertThat(report.dom()).contains("SIMULATION", "<body data-live=\"false\">",
          "<figcaption>Paired changes of metadata_stat: candidate slow vs baseline base",
          "<ul class=\"legend chart-legend\"", "<line class=\"estimate\"",
          "<rect class=\"interval\"", "<line class=\"threshold\"");
      assertOnePointPerBoot(browser, base.resolve("experiments/" + id), done);

      awaitQuarantined(client, controller, "broken-1");
      assertThat(dev.abfleet.cli.Main.run("hosts", "drain", "sim-0002", "--reason",
          "disk swap RMA-42", "--controller", "127.0.0.1:" + controller.grpcPort()))
          .isZero();
      HeadlessChromium.Page hosts = load(browser, base.resolve("hosts"), "hosts");
      assertThat(hosts.dom()).contains("<th scope=\"col\">Current boot</th>",
          "<th scope=\"col\">Drain reason</th>").doesNotContain("epoch");
      assertThat(row(hosts.dom(), "host-sim-0002")).contains(
          "<span class=\"state draining\">draining</span>",
          "<td class=\"left drain-reason\">disk swap RMA-42</td>");
      assertThat(row(hosts.dom(), "host-broken-1"))
          .contains("<span class=\"state quarantined\">quarantined</span>",
              "2 INFRA failures in a row; last: " + PacedWorker.INFRA_MESSAGE);
      assertThat(row(hosts.dom(), "host-sim-0001")).contains("sim/sim",
          "<td class=\"left current\"><span class=\"muted\">idle</span></td>");
      assertHeartbeatsAndNoise(hosts.dom(), done);

      copyForReadme(Map.of("dashboard-running", "dashboard", "experiment-report", "report",
          "hosts", "hosts"));
    }
  }

  private static ExperimentSpec spec(Path kernels) throws java.io.IOException {
    return ExperimentSpec.newBuilder().setName("slower stat (SIMULATED)")
        .addArms(Arm.newBuilder().setName("base").setRole("baseline")
            .mergeBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(kernels, "base")).build()))
        .addArms(Arm.newBuilder().setName("slow").setRole("candidate")
            .setBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(kernels, "slow")).setCmdlineExtra("sim.effect.metadata_stat=0.5")))
        .setBenchmark(Benchmark.newBuilder().setIterations(3).setIterationMs(100))
        .setSelector(HostSelector.newBuilder().setHypervisor("sim"))
        .setPolicy(Policy.newBuilder().setPairs(PAIRS).setSeed(42))
        .setPriority("pr")
        .build();
  }

  /** Loads the page; fails on any console message. */
  private static HeadlessChromium.Page load(HeadlessChromium browser, URI url, String name)
      throws Exception {
    // A report is long: its screenshot reaches the first charts.
    int height = url.getPath().startsWith("/experiments/") ? 2 * HEIGHT : HEIGHT;
    HeadlessChromium.Page p = browser.load(url, name, HeadlessChromium.SCREENSHOTS, height);
    assertThat(p.console()).as("console of " + url).isEmpty();
    assertThat(p.screenshot()).isNotEmptyFile();
    return p;
  }

  /** The per-boot chart of each metric has one point per boot with a value of it. */
  private void assertOnePointPerBoot(HeadlessChromium browser, URI page, Experiment done)
      throws Exception {
    Path file = Path.of("target", "html-reports", "dashboard-experiment.html");
    Files.createDirectories(file.getParent());
    String html = http.send(HttpRequest.newBuilder(page).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Files.writeString(file, html, StandardCharsets.UTF_8);
    List<ChartProbe.Chart> charts = ChartProbe.charts(browser, file, "dashboard-experiment");
    List<ChartProbe.Chart> boots = charts.stream().filter(c -> c.kind().equals("boots")).toList();
    assertThat(boots).isNotEmpty();
    for (ChartProbe.Chart c : boots) {
      long withValue = done.getBootsList().stream().filter(b -> hasValue(b, c.metric())).count();
      assertThat(c.points()).as("%s", c).isEqualTo((int) withValue);
      assertThat(c.drawn()).as("%s: drawn inside the chart", c).isEqualTo(c.points());
    }
    assertThat(boots.stream().filter(c -> c.metric().equals("metadata_stat")).findFirst()
        .orElseThrow().points()).isEqualTo(2 * PAIRS);
  }

  /**
   * Every connected host shows how long ago its worker spoke (heartbeats come every few
   * seconds, so well under a minute); a host that ran a complete pair of the experiment shows
   * its paired noise, and the broken host, which never completed a boot, a dash.
   */
  private static void assertHeartbeatsAndNoise(String dom, Experiment done) {
    assertThat(dom).contains("<th scope=\"col\">Last heartbeat</th>", "<th scope=\"col\">Paired noise</th>");
    java.util.Set<String> paired = done.getBootsList().stream()
        .filter(b -> !b.getWarmup() && b.getStatus().equals("ok"))
        .collect(java.util.stream.Collectors.groupingBy(b -> b.getHostId() + "/" + b.getPairIndex(),
            java.util.stream.Collectors.counting()))
        .entrySet().stream().filter(e -> e.getValue() >= 2).map(e -> e.getKey().split("/")[0])
        .collect(java.util.stream.Collectors.toSet());
    assertThat(paired).as("hosts with a complete pair").isNotEmpty().doesNotContain("broken-1");
    for (String host : List.of("sim-0001", "sim-0002", "broken-1")) {
      String row = row(dom, "host-" + host);
      assertThat(row).as(host).containsPattern("<td class=\"heartbeat\">\\d{1,2}\\.\\d s ago</td>");
      if (paired.contains(host)) {
        assertThat(row).as(host).containsPattern(
            "<td class=\"noise\"><span title=\"median \\|paired residual\\|[^\"]*\">\\d+\\.\\d\\d% over \\d+ pairs?</span></td>");
      } else {
        assertThat(row).as(host).contains("<td class=\"noise\">-</td>");
      }
    }
  }

  private static boolean hasValue(Boot b, String metric) {
    return !b.getWarmup() && b.getStatus().equals("ok") && b.getSamplesList().stream()
        .anyMatch(s -> s.getMetric().equals(metric) && !s.getWarmup());
  }

  private static void awaitQuarantined(ExperimentClient client, ControllerNode controller,
      String hostId) throws InterruptedException {
    var channel = io.grpc.Grpc.newChannelBuilder("127.0.0.1:" + controller.grpcPort(),
        io.grpc.InsecureChannelCredentials.create()).build();
    try {
      var stub = dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc.newBlockingStub(channel);
      for (int i = 0; i < 100; i++) {
        boolean quarantined = stub.listHosts(dev.abfleet.proto.fleet.v1.ListHostsRequest
            .getDefaultInstance()).getHostsList().stream()
            .anyMatch(h -> h.getHostId().equals(hostId) && h.getState().equals("quarantined"));
        if (quarantined) {
          return;
        }
        Thread.sleep(100);
      }
      throw new AssertionError(hostId + " was not quarantined within 10 s");
    } finally {
      channel.shutdownNow();
    }
  }

  /** Pairs done in the running table's row of the experiment; null when it has no such row. */
  static Integer pairsDone(String dom, String id) {
    String running = dom.contains("<table id=\"running\">")
        ? dom.substring(dom.indexOf("<table id=\"running\">"),
            dom.indexOf("</table>", dom.indexOf("<table id=\"running\">"))) : "";
    int at = running.indexOf("<tr id=\"experiment-" + id + "\">");
    if (at < 0) {
      return null;
    }
    Matcher m = PAIRS_DONE.matcher(running.substring(at));
    return m.find() ? Integer.parseInt(m.group(1)) : null;
  }

  /** The table row with this id, as the browser serialised it. */
  static String row(String dom, String rowId) {
    int at = dom.indexOf("<tr id=\"" + rowId + "\">");
    assertThat(at).as("row %s in the page", rowId).isNotNegative();
    return dom.substring(at, dom.indexOf("</tr>", at));
  }

  /** With -Dabfleet.screenshots=DIR, the README's screenshots: DIR/NAME.png from each shot. */
  private static void copyForReadme(Map<String, String> shots) throws Exception {
    String dir = System.getProperty("abfleet.screenshots", "");
    if (dir.isEmpty()) {
      return;
    }
    Path out = Path.of(dir);
    Files.createDirectories(out);
    for (var e : shots.entrySet()) {
      Files.copy(HeadlessChromium.SCREENSHOTS.resolve(e.getKey() + ".png"),
          out.resolve(e.getValue() + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
