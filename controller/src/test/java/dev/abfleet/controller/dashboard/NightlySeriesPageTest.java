package dev.abfleet.controller.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.nightly.Nightly;
import dev.abfleet.controller.nightly.RunRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class NightlySeriesPageTest {
  @Test
  void aStepInTheSeriesIsMarkedWhereItStartsAndEveryRunIsAPoint() {
    List<RunRecord> runs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      double center = (i < 6 ? 100 : 70) * (1 + 0.003 * ((i * 7) % 5 - 2));
      runs.add(run(i, center, "completed"));
    }
    runs.add(run(12, Double.NaN, "failed"));

    String html = NightlySeriesPage.section(view(false), runs);

    assertThat(Pattern.compile("data-run=\"\\d+\" data-arm=\"candidate\"").matcher(html).results().count())
        .isEqualTo(12);
    assertThat(html).contains("data-change=\"7\"").contains("change before run 7")
        .contains("Latest runs of fuse-nightly").contains("failed: kernel gone")
        .doesNotContain("SIMULATION");
  }

  @Test
  void eachRunShowsBaselineCandidateAndTheCandidatesIntervalOverItsDate() {
    // Candidate 90 against a baseline of 100 with the change's interval [-12%, -8%]: the
    // candidate's interval is 88 to 92 ops/s.
    RunRecord.Metric m = new RunRecord.Metric("metadata_stat", "ops/s", "higher", true, 100, 90, -0.10,
        -0.12, -0.08, "regressed");
    RunRecord r = new RunRecord("fuse-nightly", "2026-11-03T02:30:00Z", "fuse-nightly-3", "completed", null,
        null, List.of(m), "regressed", false, "", false);

    String html = NightlySeriesPage.section(view(false), List.of(run(0, 101, "completed"), r));

    assertThat(html).contains("data-run=\"2\" data-arm=\"baseline\"", "11-03: baseline 100 ops/s",
        "data-run=\"2\" data-arm=\"candidate\"", "candidate 90.0 ops/s [88.0, 92.0]",
        "11-03: candidate&#39;s interval 88.0 to 92.0 ops/s", ">11-01</text>", ">11-03</text>",
        "run due (UTC), 2026", "data-legend=\"baseline\"", "data-legend=\"interval\"");
  }

  @Test
  void simulatedSchedulesSaySoAndAScheduleWithoutRunsHasNoChart() {
    String html = NightlySeriesPage.section(view(true), List.of());

    assertThat(html).contains("fuse-nightly (SIMULATION)").contains("no kernel was booted")
        .contains("0 runs recorded").doesNotContain("<svg").doesNotContain("<table");
  }

  @Test
  void theSeriesJsonNumbersRunsFromOneAndReadsMediansFromTheFinalSegments() throws Exception {
    // Levels 100 (runs 1-8), 116 (runs 9-16), 70 (runs 17-24).
    List<RunRecord> runs = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      double level = i < 8 ? 100 : i < 16 ? 116 : 70;
      runs.add(run(i, level * (1 + 0.002 * ((i * 7) % 5 - 2)), "completed"));
    }
    var settings = new dev.abfleet.stats.changepoint.Settings(0.01, 3, 999, 0);
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(SeriesJson.of(
        dev.abfleet.controller.nightly.Series.of("fuse-nightly", "metadata_stat", "center", runs, settings)));

    assertThat(json.get("runs").get(0).get("run").asInt()).isEqualTo(1);
    assertThat(json.get("runs")).hasSize(24);
    var points = json.get("change_points");
    assertThat(points).hasSize(2);
    assertThat(points.get(0).get("run").asInt()).isEqualTo(9);
    assertThat(points.get(1).get("run").asInt()).isEqualTo(17);
    // Run 9's before and after are the medians of runs 1-8 and 9-16 (not of runs 1-16).
    assertThat(points.get(0).get("before").asDouble()).isEqualTo(median(runs.subList(0, 8)));
    assertThat(points.get(0).get("after").asDouble()).isEqualTo(median(runs.subList(8, 16)));
    assertThat(points.get(1).get("before").asDouble()).isEqualTo(median(runs.subList(8, 16)));
    assertThat(points.get(1).get("after").asDouble()).isEqualTo(median(runs.subList(16, 24)));

    // min_change 20%: the +16% point goes, the other is read again over runs 1-16.
    var large = new com.fasterxml.jackson.databind.ObjectMapper().readTree(SeriesJson.of(
        dev.abfleet.controller.nightly.Series.of("fuse-nightly", "metadata_stat", "center", runs,
            settings.withMinRelative(0.2))));
    assertThat(large.get("min_change").asDouble()).isEqualTo(0.2);
    assertThat(large.get("change_points")).hasSize(1);
    assertThat(large.get("change_points").get(0).get("before").asDouble()).isEqualTo(median(runs.subList(0, 16)));
  }

  @Test
  void heldAndRejectedRunsShowTheirDecisionAndReasonAndHeldOnesAreListedFirst() throws Exception {
    RunRecord.Metric m = new RunRecord.Metric("metadata_stat", "ops/s", "higher", true, 100, 89.7, -0.103,
        -0.315, 0.041, "inconclusive");
    RunRecord held = new RunRecord("fuse-nightly", "2026-11-02T02:30:00Z", "fuse-nightly-1", "completed", null, null,
        List.of(m), "inconclusive", false, "", false, "held", "gate",
        "gate inconclusive: metadata_stat -10.3% [-31.5%, +4.1%] inconclusive", 1);
    RunRecord rejected = new RunRecord("fuse-nightly", "2026-11-03T02:30:00Z", "fuse-nightly-2", "completed", null,
        null, List.of(m), "inconclusive", false, "", false, "rejected", "operator", "the <slow> build", 2);

    String html = NightlySeriesPage.section(view(false), List.of(run(0, 100, "completed"), held, rejected));

    assertThat(html).contains("<strong>1 run is HELD</strong>: the gate was inconclusive, so the baseline did not"
        + " move.").contains("<li data-held=\"fuse-nightly-1\"><a href=\"/experiments/fuse-nightly-1\">")
        .contains("<th scope=\"col\">Decision</th>")
        .contains("<span class=\"decision held\">held</span> by gate: gate inconclusive: metadata_stat -10.3%")
        .contains("<span class=\"decision rejected\">rejected</span> by operator: the &lt;slow&gt; build")
        .contains("<span class=\"decision accepted\">accepted</span>");
    assertThat(html.indexOf("data-held")).as("held runs come before the charts").isLessThan(html.indexOf("<svg"));

    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(SeriesJson.of(
        dev.abfleet.controller.nightly.Series.of("fuse-nightly", "metadata_stat", "center",
            List.of(run(0, 100, "completed"), held, rejected), new dev.abfleet.stats.changepoint.Settings(0.01, 3, 999, 0))));
    assertThat(json.get("runs").findValuesAsText("decision")).containsExactly("accepted", "held", "rejected");
    assertThat(json.get("runs").get(1).get("decision_reason").asText()).startsWith("gate inconclusive:");
    assertThat(json.get("runs").get(2).get("decided_by").asText()).isEqualTo("operator");
  }

  private static double median(List<RunRecord> runs) {
    double[] v = runs.stream().mapToDouble(r -> r.metric("metadata_stat").orElseThrow().candidateCenter())
        .sorted().toArray();
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  private static Nightly.ScheduleView view(boolean sim) {
    return new Nightly.ScheduleView("fuse-nightly", "30 2 * * *", "UTC", "2026-12-04T02:30:00Z", sim, null, List.of());
  }

  private static RunRecord run(int i, double center, String state) {
    List<RunRecord.Metric> metrics = Double.isNaN(center) ? List.of()
        : List.of(new RunRecord.Metric("metadata_stat", "ops/s", "higher", true, 100, center, center / 100 - 1,
            center / 100 - 1.02, center / 100 - 0.98, "no_change"));
    return new RunRecord("fuse-nightly", Instant.parse("2026-11-01T02:30:00Z").plusSeconds(86_400L * i).toString(),
        "fuse-nightly-" + i, state, null, null, metrics, "", state.equals("completed"),
        state.equals("failed") ? "kernel gone" : "", false);
  }
}
