package dev.abfleet.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.ReportFormat;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.cli.noise.NoiseQuotes;
import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.cli.noise.NoiseStore;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measured noise of an experiment's host class, quoted after its report in every format. */
class NoiseReportTest {
  private static final String LINE = "host class qemu/tcg: measured A/A false-positive rate 0/3 experiments"
      + " (95% Wilson 0-56%), calibrated 2026-12-03; noise per metric: metadata_stat CV 2.1%, paired sd 2.9%"
      + " (12 pairs); pairs for a 4% change at 80% power: 7";

  /**
   * The golden FUSE experiment with its boots on qemu/tcg; its spec lists no gating metrics, so
   * m = 1, and its noise threshold is 2%, so the pairs are planned for a 4% change.
   */
  private static Experiment onQemuTcg() {
    Experiment.Builder e = ReportGoldenTest.fuseCase().toBuilder();
    for (Boot.Builder b : e.getBootsBuilderList()) {
      b.setHostClass("qemu/tcg");
    }
    return e.build();
  }

  /** Moments with n values, the given mean and sd. */
  private static Moments moments(long n, double mean, double sd) {
    return new Moments(n, mean, sd * sd * (n - 1));
  }

  private static NoiseStore storeWithQemuTcg(Path dir) {
    NoiseStore store = new NoiseStore(dir);
    store.merge(new NoiseRecord("qemu/tcg", 3, 0, LocalDate.of(2026, 12, 3), List.of("metadata_stat"),
        List.of(new MetricNoise("metadata_stat", moments(24, 30000, 630), moments(12, 0, 0.029), List.of()))));
    return store;
  }

  @Test
  void withoutARecordTheReportIsExactlyAsBefore(@TempDir Path dir) {
    Experiment e = onQemuTcg();
    var none = NoiseQuotes.of(e, new NoiseStore(dir));
    assertThat(none).isEmpty();
    for (ReportFormat f : ReportFormat.values()) {
      assertThat(f.render(e, none)).isEqualTo(f.render(e));
    }
  }

  @Test
  void textQuotesTheClassNoiseAfterTheReport(@TempDir Path dir) {
    Experiment e = onQemuTcg();
    String text = ReportFormat.TEXT.render(e, NoiseQuotes.of(e, storeWithQemuTcg(dir)));
    assertThat(text).isEqualTo(ReportFormat.TEXT.render(e) + LINE + "\n");
  }

  @Test
  void markdownQuotesItAsAListItem(@TempDir Path dir) {
    Experiment e = onQemuTcg();
    String md = ReportFormat.MARKDOWN.render(e, NoiseQuotes.of(e, storeWithQemuTcg(dir)));
    assertThat(md).isEqualTo(ReportFormat.MARKDOWN.render(e) + "\n- " + LINE.replace("qemu/tcg:", "`qemu/tcg`:")
        + "\n");
  }

  @Test
  void jsonAddsNoiseCalibration(@TempDir Path dir) throws Exception {
    Experiment e = onQemuTcg();
    ObjectMapper json = new ObjectMapper();
    JsonNode with = json.readTree(ReportFormat.JSON.render(e, NoiseQuotes.of(e, storeWithQemuTcg(dir))));
    JsonNode without = json.readTree(ReportFormat.JSON.render(e));

    JsonNode n = ((com.fasterxml.jackson.databind.node.ObjectNode) with).remove("noise_calibration");
    assertThat(with).isEqualTo(without);
    assertThat(n).hasSize(1);
    JsonNode c = n.get(0);
    assertThat(c.get("class").asText()).isEqualTo("qemu/tcg");
    assertThat(c.get("experiments").asInt()).isEqualTo(3);
    assertThat(c.get("false_positives").asInt()).isZero();
    assertThat(c.get("fp_rate").asDouble()).isZero();
    assertThat(c.get("fp_interval").get(0).asDouble()).isZero();
    assertThat(c.get("fp_interval").get(1).asDouble()).isBetween(0.561, 0.562); // Wilson 0/3: 0.5615
    assertThat(c.get("date").asText()).isEqualTo("2026-12-03");
    JsonNode m = c.get("metrics").get(0);
    assertThat(m.get("metric").asText()).isEqualTo("metadata_stat");
    assertThat(m.get("cv").asDouble()).isCloseTo(0.021, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(m.get("paired_sd").asDouble()).isCloseTo(0.029, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(m.get("pairs").asInt()).isEqualTo(12);
    assertThat(m.get("pairs_for_mde").asInt()).isEqualTo(7);
    assertThat(c.get("mde").asDouble()).isEqualTo(0.04);
  }
}
