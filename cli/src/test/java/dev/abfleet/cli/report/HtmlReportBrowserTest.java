package dev.abfleet.cli.report;

import dev.abfleet.controller.report.ProtoReports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.HtmlReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HTML report in a real browser (headless Chromium): each fixture page renders without a
 * console message, every chart is a named image, the per-boot chart of each metric and class
 * has one drawn point per boot with a value, the paired chart one per complete pair; a
 * screenshot of each page is kept in target/screenshots.
 */
class HtmlReportBrowserTest {
  private static final Path PAGES = Path.of("target", "html-reports");

  @Test
  void singleArmReportRendersOnePointPerBoot() throws Exception {
    List<ChartProbe.Chart> charts = assertRenders("single-arm", HtmlFixtures.singleArm());
    assertThat(charts).hasSize(2);
  }

  @Test
  void multiArmReportRendersEachArmsBootsAndPairsAndEscapesTheHostileName() throws Exception {
    List<ChartProbe.Chart> charts = assertRenders("multi-arm", HtmlFixtures.multiArm());
    assertThat(charts.stream().filter(c -> c.kind().equals("changes")).map(ChartProbe.Chart::arm))
        .contains("spinwait", HtmlFixtures.HOSTILE);
  }

  @Test
  void crossHostReportRendersEachClass() throws Exception {
    List<ChartProbe.Chart> charts = assertRenders("cross-host", HtmlFixtures.crossHost());
    assertThat(charts.stream().map(ChartProbe.Chart::cls).distinct()).containsExactly("qemu/kvm", "vz/vz");
  }

  /** Renders, loads, checks console, names and point counts; returns the charts. */
  static List<ChartProbe.Chart> assertRenders(String name, Experiment e) throws Exception {
    HeadlessChromium browser = HeadlessChromium.require();
    Files.createDirectories(PAGES);
    Path page = PAGES.resolve(name + ".html");
    Files.writeString(page, HtmlReport.render(ProtoReports.of(e)), StandardCharsets.UTF_8);

    HeadlessChromium.Page loaded = browser.load(page, name);
    assertThat(loaded.console()).as("console of " + page).isEmpty();
    assertThat(loaded.screenshot()).isNotEmptyFile();
    List<ChartProbe.Chart> charts = ChartProbe.charts(browser, page, name);
    assertThat(charts).isNotEmpty();
    String baseline = e.getSpec().getArms(0).getName();
    for (ChartProbe.Chart c : charts) {
      assertThat(c.labelled()).as("%s is a named image", c).isTrue();
      assertThat(c.drawn()).as("%s: every point drawn inside its chart", c).isEqualTo(c.points());
      int expected = c.kind().equals("boots") ? HtmlFixtures.bootsWithValue(e, c.metric(), c.cls())
          : HtmlFixtures.completePairs(e, baseline, c.arm(), c.metric(), c.cls());
      assertThat(c.points()).as("%s", c).isEqualTo(expected);
    }
    assertThat(charts.stream().mapToInt(ChartProbe.Chart::points).sum()).isPositive();
    return charts;
  }
}
