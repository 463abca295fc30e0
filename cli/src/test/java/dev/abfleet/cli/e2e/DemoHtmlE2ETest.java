package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.report.ChartProbe;
import dev.abfleet.cli.report.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code abfleet demo --format html > r.html}: two real Debian kernels booted in QEMU, the report
 * opened in headless Chromium: no console messages, and one point per boot in each metric's chart.
 */
@Tag("e2e")
class DemoHtmlE2ETest {
  private static final int PAIRS = 6; // the fewest that can decide: fewer are refused before a boot

  @Test
  void demoReportOpensInABrowserWithOnePointPerBoot(@TempDir Path dir) throws Exception {
    HeadlessChromium browser = HeadlessChromium.require();
    // Its own store: a demo (or ab) running elsewhere on this machine holds the default one.
    Map<String, String> env = Map.of("ABFLEET_HOME", CalibrateRealE2ETest.isolatedHome(dir).toString());
    Process p = Cli.start(dir, "demo", List.of(), env,
        "demo", "--pairs", String.valueOf(PAIRS), "--format", "html");
    if (!p.waitFor(15, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("abfleet demo did not finish in 15 min; stderr:\n"
          + Cli.read(dir.resolve("demo.err")));
    }
    assertThat(p.exitValue()).as(Cli.read(dir.resolve("demo.err"))).isZero();
    // The browser takes a page by its extension: r.html, as the acceptance names it.
    Path page = Files.copy(dir.resolve("demo.out"), dir.resolve("r.html"));

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
