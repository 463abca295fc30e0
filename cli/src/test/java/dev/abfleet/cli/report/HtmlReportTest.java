package dev.abfleet.cli.report;

import dev.abfleet.controller.report.ProtoReports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.config.Problem;
import dev.abfleet.cli.ReportFormat;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.report.HtmlReport;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The HTML report's markup on the golden fixtures: what it must contain and escape. Whether a
 * browser draws it is {@link HtmlReportBrowserTest}'s business.
 */
class HtmlReportTest {
  private static final Pattern SVG = Pattern.compile("<svg class=\"chart\" (.*?)</svg>", Pattern.DOTALL);

  static String html(Experiment e) {
    return HtmlReport.render(ProtoReports.of(e));
  }

  /** Each chart's opening attributes and its number of point elements. */
  private static List<String[]> charts(String html) {
    List<String[]> out = new ArrayList<>();
    Matcher m = SVG.matcher(html);
    while (m.find()) {
      String svg = m.group(1);
      int points = count(svg, " data-boot=\"") + count(svg, " data-pair=\"");
      out.add(new String[] {svg.substring(0, svg.indexOf('>')), String.valueOf(points)});
    }
    return out;
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int at = s.indexOf(what); at >= 0; at = s.indexOf(what, at + 1)) {
      n++;
    }
    return n;
  }

  @Test
  void aHostileArmNameRendersAsTextNeverAsMarkup() {
    String html = html(HtmlFixtures.multiArm());

    assertThat(html).doesNotContain("<script").doesNotContain("console.error('")
        .contains("&lt;script&gt;console.error(&#39;not escaped&#39;)&lt;/script&gt;");
  }

  @Test
  void oneBootPointPerOkBootWithAValueAndOneChangePointPerCompletePair() {
    List<String[]> charts = charts(html(HtmlFixtures.singleArm()));

    // metadata_stat: three ok boots (the candidate's second boot failed), one complete pair.
    assertThat(charts.get(0)[0]).contains("data-chart=\"boots\" data-metric=\"metadata_stat\"");
    assertThat(charts.get(0)[1]).isEqualTo("3");
    assertThat(charts.get(1)[0]).contains("data-chart=\"changes\" data-metric=\"metadata_stat\"")
        .contains("data-arm=\"spinwait\"");
    assertThat(charts.get(1)[1]).isEqualTo("1");
    // Only metadata_stat has per-boot values in the fixture: the other four metrics say so.
    assertThat(charts).hasSize(2);
    assertThat(html(HtmlFixtures.singleArm()).split("No boot has a value of this metric", -1))
        .hasSize(5);
  }

  @Test
  void aCrossHostReportDrawsEachClassItsOwnCharts() {
    List<String[]> charts = charts(html(HtmlFixtures.crossHost()));

    // metadata_stat has values on both classes; seq_read on none.
    assertThat(charts).hasSize(4);
    assertThat(charts.get(0)[0]).contains("data-class=\"qemu/kvm\"");
    assertThat(charts.get(0)[1]).isEqualTo("16");
    assertThat(charts.get(1)[1]).isEqualTo("8");
    assertThat(charts.get(2)[0]).contains("data-class=\"vz/vz\"");
    assertThat(charts.get(2)[1]).isEqualTo("16");
  }

  @Test
  void aMultiArmReportDrawsOneSeriesPerArmAndOneChangesChartPerCompared() {
    String html = html(HtmlFixtures.multiArm());
    List<String[]> charts = charts(html);

    assertThat(charts.get(0)[1]).isEqualTo("5");
    assertThat(charts.get(1)[0]).contains("data-arm=\"spinwait\"");
    assertThat(charts.get(2)[0]).contains("data-arm=\"&lt;script&gt;");
    assertThat(charts.get(2)[1]).isEqualTo("2");
    assertThat(html).contains("<caption>Guest counters per unit of work")
        .contains("<td>spinwait</td><td>RES per op</td><td>0.00900</td><td>0.00300</td>");
  }

  @Test
  void multiArmChangesChartsAreCaptionedWithTheirCandidateAndCarryALegend() {
    String html = html(HtmlFixtures.multiArm());

    assertThat(html).contains("<figcaption>Paired changes of metadata_stat: candidate spinwait vs"
        + " baseline stock, one point per complete pair</figcaption>",
        "<figcaption>Paired changes of metadata_stat: candidate &lt;script&gt;");
    String legend = html.substring(html.indexOf("<ul class=\"legend chart-legend\""));
    legend = legend.substring(0, legend.indexOf("</ul>"));
    assertThat(legend).contains("<line class=\"estimate\"", "<rect class=\"interval\"",
        "<line class=\"threshold\"", "noise threshold ±");
    assertThat(count(html, "class=\"legend chart-legend\"")).isEqualTo(2);
  }

  @Test
  void everyChartIsAnImageNamedByItsTitleAndDescription() {
    for (String[] c : charts(html(HtmlFixtures.crossHost()))) {
      Matcher id = Pattern.compile("aria-labelledby=\"(\\S+)-t \\1-d\"").matcher(c[0]);
      assertThat(id.find()).as(c[0]).isTrue();
      assertThat(c[0]).contains("role=\"img\"");
    }
  }

  @Test
  void verdictTableHasTheMarkdownColumnsAndTheFactsLines() {
    Experiment sim = HtmlFixtures.singleArm().toBuilder().setSpec(HtmlFixtures.singleArm().getSpec()
        .toBuilder().setSelector(HostSelector.newBuilder().setHypervisor("sim"))).build();
    String html = html(sim);

    assertThat(html).contains("<th scope=\"col\">metric</th><th scope=\"col\">baseline</th>"
        + "<th scope=\"col\">candidate</th><th scope=\"col\">change</th>"
        + "<th scope=\"col\">CI (95% joint)</th><th scope=\"col\">p (adj.)</th>"
        + "<th scope=\"col\">verdict</th>")
        .contains("<p class=\"banner\" role=\"note\"><strong>SIMULATION: hypervisor sim")
        .contains("Boot failures: stock 0 of 2 boots failed (0%), spinwait 1 of 2 (50%)")
        .contains("<th scope=\"row\">metadata_stat</th><td>31.8k ops/s</td><td>50.3k ops/s</td>"
            + "<td>+58.2%</td><td>[+51.0%, +64.9%]</td><td>0.031</td>")
        .contains("seq_read: n=2 usable pairs");
    assertThat(html(HtmlFixtures.singleArm())).doesNotContain("SIMULATION");
  }

  @Test
  void builtArmsAreListedUnderTheFactsLineOnePerArm() {
    String html = html(ReportGoldenTest.buildsCase());

    assertThat(html).contains("seed 42, completed.</p>\n<ul class=\"builds\">\n"
        + "<li>stock: build 3f2a9c1d (linux-source-6.1.tar.xz + 0 patches, abfleet-minimal, x86_64)</li>\n"
        + "<li>spinwait: build 9b1e07aa (linux-source-6.1.tar.xz + 1 patch: fuse-spinwait.patch,"
        + " abfleet-minimal, x86_64)</li>\n</ul>\n<table");
    assertThat(html(ReportGoldenTest.fuseCase())).doesNotContain("class=\"builds\"");
  }

  @Test
  void theDocumentIsSelfContained() {
    String html = html(HtmlFixtures.crossHost());

    assertThat(html).startsWith("<!DOCTYPE html>").contains("<style>").contains("@media print")
        .doesNotContain("<script").doesNotContain("<link").doesNotContain("src=")
        .doesNotContain("http:").doesNotContain("https:").doesNotContain("url(");
  }

  @Test
  void formatHtmlIsAReportFormat() {
    assertThat(ReportFormat.parse("HTML")).isEqualTo(ReportFormat.HTML);
    assertThat(ReportFormat.HTML.render(HtmlFixtures.singleArm())).startsWith("<!DOCTYPE html>");
    assertThatThrownBy(() -> ReportFormat.parse("pdf")).isInstanceOf(Problem.class)
        .hasMessage("--format 'pdf': expected text, json, markdown or html");
  }
}
