package dev.abfleet.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a browser drew of a report's charts. The report itself has no scripts; a copy of it gets
 * one that, after layout, counts each chart's point elements and how many of them the browser
 * laid out with a size inside their chart, checks the chart's accessible name, and writes the
 * result into the DOM that {@link HeadlessChromium} dumps.
 */
public final class ChartProbe {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MARK = "<pre id=\"abfleet-probe\">";
  private static final String SCRIPT = """
      <script>
      (function () {
        var out = [];
        document.querySelectorAll('svg.chart').forEach(function (svg) {
          var box = svg.getBoundingClientRect();
          var points = Array.from(svg.querySelectorAll('[data-boot],[data-pair],[data-run]'));
          var drawn = points.filter(function (p) {
            var b = p.getBoundingClientRect();
            return b.width > 0 && b.height > 0 && b.left >= box.left - 1 && b.right <= box.right + 1
                && b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
          }).length;
          var ids = (svg.getAttribute('aria-labelledby') || '').split(' ');
          var labelled = svg.getAttribute('role') === 'img' && ids.length === 2 && ids.every(function (i) {
            var e = document.getElementById(i);
            return e !== null && svg.contains(e) && e.textContent.length > 0;
          });
          out.push({kind: svg.dataset.chart, metric: svg.dataset.metric, cls: svg.dataset.class || '',
              arm: svg.dataset.arm || '', points: points.length, drawn: drawn, labelled: labelled,
              ids: points.map(function (p) { return p.dataset.boot || p.dataset.pair || p.dataset.run; })});
        });
        var pre = document.createElement('pre');
        pre.id = 'abfleet-probe';
        pre.textContent = encodeURIComponent(JSON.stringify(out));
        document.body.appendChild(pre);
      })();
      </script>
      """;

  private ChartProbe() {}

  /**
   * One chart as laid out.
   *
   * @param kind "boots" (per-boot values), "changes" (paired changes) or "series" (a nightly
   *     series, one point per run)
   * @param cls host class; empty = every class
   * @param arm compared arm of a "changes" chart; empty for "boots"
   * @param points point elements in the chart
   * @param drawn points laid out with a size, inside the chart
   * @param labelled role img, named by its own non-empty title and description
   * @param ids each point's run id (boots) or pair index (changes)
   */
  public record Chart(String kind, String metric, String cls, String arm, int points, int drawn,
      boolean labelled, List<String> ids) {}

  /** The charts of the page, as the browser laid them out. */
  public static List<Chart> charts(HeadlessChromium browser, Path html, String name)
      throws IOException, InterruptedException {
    String page = Files.readString(html, StandardCharsets.UTF_8);
    Path probed = Files.createTempFile("probe-", ".html");
    try {
      Files.writeString(probed, page.replace("</body>", SCRIPT + "</body>"), StandardCharsets.UTF_8);
      HeadlessChromium.Page p = browser.load(probed, name + "-probe");
      if (!p.console().isEmpty()) {
        throw new IllegalStateException("the probe failed: " + p.console());
      }
      int at = p.dom().indexOf(MARK);
      if (at < 0) {
        throw new IllegalStateException("the probe wrote nothing; DOM:\n" + p.dom());
      }
      String encoded = p.dom().substring(at + MARK.length(), p.dom().indexOf("</pre>", at));
      List<Chart> out = new ArrayList<>();
      for (JsonNode c : JSON.readTree(URLDecoder.decode(encoded, StandardCharsets.UTF_8))) {
        List<String> ids = new ArrayList<>();
        c.get("ids").forEach(i -> ids.add(i.asText()));
        out.add(new Chart(c.get("kind").asText(), c.get("metric").asText(), c.get("cls").asText(),
            c.get("arm").asText(), c.get("points").asInt(), c.get("drawn").asInt(),
            c.get("labelled").asBoolean(), ids));
      }
      return out;
    } finally {
      Files.deleteIfExists(probed);
    }
  }
}
