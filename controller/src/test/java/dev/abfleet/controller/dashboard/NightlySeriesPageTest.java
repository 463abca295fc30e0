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

    assertThat(Pattern.compile("data-run=\"").matcher(html).results().count()).isEqualTo(12);
    assertThat(html).contains("data-change=\"7\"").contains("change before run 7")
        .contains("Latest runs of fuse-nightly").contains("failed: kernel gone")
        .doesNotContain("SIMULATION");
  }

  @Test
  void simulatedSchedulesSaySoAndAScheduleWithoutRunsHasNoChart() {
    String html = NightlySeriesPage.section(view(true), List.of());

    assertThat(html).contains("fuse-nightly (SIMULATION)").contains("no kernel was booted")
        .contains("0 runs recorded").doesNotContain("<svg").doesNotContain("<table");
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
