package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.report.ChartProbe;
import dev.abfleet.cli.report.HeadlessChromium;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code abfleet demo --format html > r.html}: two real Debian kernels booted in QEMU, the report
 * opened in headless Chromium: no console messages, and one point per boot in each metric's chart.
 */
@Tag("e2e")
class DemoHtmlE2ETest {
  private static final int PAIRS = 2;

  @Test
  void demoReportOpensInABrowserWithOnePointPerBoot(@TempDir Path dir) throws Exception {
    HeadlessChromium browser = HeadlessChromium.require();
    Cli.Result r = Cli.run(dir, 15, "demo", "--pairs", String.valueOf(PAIRS), "--format", "html");
    assertThat(r.exit()).as(r.err()).isZero();
    Path page = dir.resolve("r.html");
    Files.writeString(page, r.out(), StandardCharsets.UTF_8);

    HeadlessChromium.Page loaded = browser.load(page, "demo");
    assertThat(loaded.console()).as("console of the demo report").isEmpty();
    assertThat(loaded.screenshot()).isNotEmptyFile();
    List<ChartProbe.Chart> charts = ChartProbe.charts(browser, page, "demo");
    List<ChartProbe.Chart> boots = charts.stream().filter(c -> c.kind().equals("boots")).toList();
    List<ChartProbe.Chart> changes = charts.stream().filter(c -> c.kind().equals("changes")).toList();
    // The demo's benchmark reports four metrics; every boot of both arms measures each.
    assertThat(boots).hasSize(4);
    assertThat(changes).hasSize(4);
    for (ChartProbe.Chart c : boots) {
      assertThat(c.points()).as("%s: one point per boot", c).isEqualTo(2 * PAIRS);
      assertThat(new HashSet<>(c.ids())).as("%s: distinct boots", c).hasSize(2 * PAIRS);
      assertThat(c.drawn()).isEqualTo(c.points());
      assertThat(c.labelled()).isTrue();
    }
    for (ChartProbe.Chart c : changes) {
      assertThat(c.points()).as("%s: one point per pair", c).isEqualTo(PAIRS);
      assertThat(c.drawn()).isEqualTo(c.points());
    }
  }
}
