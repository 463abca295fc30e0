package dev.abfleet.cli.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ControllerConfigsAccess;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.Main;
import dev.abfleet.cli.history.HistoryEntry;
import dev.abfleet.cli.history.HistoryFile;
import dev.abfleet.cli.report.ChartProbe;
import dev.abfleet.cli.report.HeadlessChromium;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.testkit.Ports;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's Nightly page in headless Chromium: a controller with one schedule and its
 * history (16 nights of metadata_stat, 31.8k ops/s for 8 nights, then 50.3k: the FUSE patch of
 * the motivating case) imported with {@code abfleet history import}. The page renders without
 * console messages, its chart has a baseline and a candidate point per night inside the plot with
 * the candidate's interval, the nights' dates on the x axis, and one change point marked, before
 * night 9.
 */
class NightlyDashboardBrowserTest {
  private static final int NIGHTS = 16;
  private static final int HELD_NIGHT = 12;
  private static final Pattern CHANGE = Pattern.compile("data-change=\"(\\d+)\"");

  @TempDir Path home;

  @Test
  @Timeout(120)
  void theNightlyPageShowsTheSeriesWithItsChangePointMarked() throws Exception {
    HeadlessChromium browser = HeadlessChromium.require();
    var fleet = FleetConfigLoader.parse("fleet.yaml", "schedules:\n"
        + "  - {name: fuse-nightly, cron: '30 2 * * *', candidate: {newest_in: /srv/kernels}, baseline: last_accepted}\n");
    ControllerSettings settings = ControllerSettings.inMemory()
        .withDashboardPort(Ports.freeLoopbackPort())
        .withNightly(ControllerConfigsAccess.nightly(fleet, home));
    try (ControllerNode controller = ControllerNode.start(settings)) {
      Path file = home.resolve("fuse-nightly.jsonl");
      HistoryFile history = new HistoryFile(file);
      for (int i = 0; i < NIGHTS; i++) {
        history.append(night(i, (i < 8 ? 31_800 : 50_300) * (1 + 0.004 * ((i * 7) % 5 - 2))));
      }
      StringWriter err = new StringWriter();
      int exit = Main.run(new PrintWriter(err, true), "history", "import", "--controller",
          "127.0.0.1:" + controller.grpcPort(), file.toString());
      assertThat(exit).as(err.toString()).isEqualTo(ExitCodes.OK);

      URI page = URI.create("http://127.0.0.1:" + controller.dashboardPort() + "/nightly");
      HeadlessChromium.Page shown = browser.load(page, "nightly", HeadlessChromium.SCREENSHOTS, 1400);
      assertThat(shown.console()).as("console of /nightly").isEmpty();
      assertThat(shown.screenshot()).isNotEmptyFile();
      // With -Dabfleet.screenshots=DIR (bin/screenshots), the README's copy.
      String readme = System.getProperty("abfleet.screenshots", "");
      if (!readme.isEmpty()) {
        Files.createDirectories(Path.of(readme));
        Files.copy(shown.screenshot(), Path.of(readme, "nightly.png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      assertThat(shown.dom()).contains("fuse-nightly").contains("Latest runs of fuse-nightly")
          .contains("1 run is HELD").contains("data-held=\"fuse-nightly-night-12\"")
          .contains("gate inconclusive: rm_rf -6.0% [-14.1%, +2.2%] inconclusive");
      List<String> changes = CHANGE.matcher(shown.dom()).results().map(m -> m.group(1)).toList();
      assertThat(changes).containsExactly("9");

      String html = HttpClient.newHttpClient().send(HttpRequest.newBuilder(page).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      Path copy = Path.of("target", "html-reports", "dashboard-nightly.html");
      Files.createDirectories(copy.getParent());
      Files.writeString(copy, html, StandardCharsets.UTF_8);
      List<ChartProbe.Chart> charts = ChartProbe.charts(browser, copy, "dashboard-nightly");
      // Per night a baseline and a candidate point, both inside the plot.
      assertThat(charts).singleElement().satisfies(c -> {
        assertThat(c.kind()).isEqualTo("series");
        assertThat(c.metric()).isEqualTo("metadata_stat");
        assertThat(c.points()).isEqualTo(2 * NIGHTS);
        assertThat(c.drawn()).isEqualTo(2 * NIGHTS);
        assertThat(c.labelled()).isTrue();
      });
      assertBaselineCandidateIntervalAndDates(shown.dom());
    }
  }

  /**
   * Night 1 (2026-11-01): baseline 31.8k; candidate 31.8k * (1 - 0.008) = 31545.6 with the
   * interval [-2%, +2%] of the baseline around it, 30909.6 to 32181.6. The x axis names dates,
   * and the y axis repeats no label.
   */
  private static void assertBaselineCandidateIntervalAndDates(String dom) {
    String svg = dom.substring(dom.indexOf("<svg class=\"chart\""), dom.indexOf("</svg>") + 6);
    for (String arm : List.of("baseline", "candidate")) {
      assertThat(Pattern.compile("data-run=\"\\d+\" data-arm=\"" + arm + "\"").matcher(svg).results().count())
          .as(arm + " points").isEqualTo(NIGHTS);
    }
    assertThat(Pattern.compile("class=\"run-interval\" data-interval=\"\\d+\"").matcher(svg).results().count())
        .as("candidate intervals").isEqualTo(NIGHTS);
    assertThat(svg).contains("11-01: baseline 31.8k ops/s", "candidate 31.5k ops/s [30.9k, 32.2k]",
        ">11-01</text>", ">11-15</text>", ">run due (UTC), 2026</text>").doesNotContain(">run</text>");
    List<String> yLabels = Pattern.compile("text-anchor=\"end\">([^<]*)</text>").matcher(svg).results()
        .map(m -> m.group(1)).toList();
    assertThat(yLabels).hasSizeGreaterThan(2).doesNotHaveDuplicates();
    assertThat(dom).contains("data-legend=\"baseline\"", "data-legend=\"candidate\"", "data-legend=\"interval\"");
  }

  /** Night {@code i} of the schedule: metadata_stat's candidate median {@code center}. */
  private static HistoryEntry night(int i, double center) {
    String date = Instant.parse("2026-11-01T02:30:00Z").plusSeconds(86_400L * i).toString();
    var metric = new HistoryEntry.Metric("metadata_stat", "ops/s", "higher", true, 31_800, center,
        center / 31_800 - 1, center / 31_800 - 1.02, center / 31_800 - 0.98, i < 8 ? "no_change" : "improved");
    var kernel = new HistoryEntry.Artifact("/srv/kernels/vmlinuz-" + i, String.format("%064x", i));
    if (i == HELD_NIGHT) {
      // Its gate was inconclusive: the run is held, its kernel not the baseline.
      return new HistoryEntry(HistoryEntry.VERSION, "fuse-nightly", date, "fuse-nightly-night-" + i, "completed",
          kernel, kernel, List.of(metric), "inconclusive", false, "", false, "held", "gate",
          "gate inconclusive: rm_rf -6.0% [-14.1%, +2.2%] inconclusive");
    }
    return new HistoryEntry(HistoryEntry.VERSION, "fuse-nightly", date, "fuse-nightly-night-" + i, "completed",
        kernel, kernel, List.of(metric), i < 8 ? "no_change" : "improved", true, "");
  }
}
