package dev.abfleet.cli.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.stats.noise.NoiseRecord;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table of {@code calibrate --real} marks a class of sim hosts in every format, and only that class. */
class RealCalibrationRenderTest {
  private static NoiseRecord record(String cls) {
    return new NoiseRecord(cls, 3, 0, LocalDate.of(2026, 12, 3), List.of("metadata_stat"),
        List.of(new MetricNoise("metadata_stat", Moments.of(100, 104), Moments.of(0.03, -0.03), List.of())));
  }

  private static final List<NoiseRecord> BOTH = List.of(record("qemu/tcg"), record("sim/sim"));

  @Test
  void textAndMarkdownMarkTheSimClass() {
    for (String format : List.of("text", "markdown")) {
      String out = RealCalibration.render(BOTH, format, 0.02, 0.05);
      assertThat(out).as(format).contains("sim/sim (SIMULATION)").doesNotContain("qemu/tcg (SIMULATION)")
          .contains("qemu/tcg");
    }
  }

  @Test
  void jsonSaysWhichClassIsSimulated() throws Exception {
    JsonNode classes = new ObjectMapper().readTree(RealCalibration.render(BOTH, "json", 0.02, 0.05))
        .path("noise_calibration");
    assertThat(classes.get(0).path("class").asText()).isEqualTo("qemu/tcg");
    assertThat(classes.get(0).path("simulated").asBoolean()).isFalse();
    assertThat(classes.get(1).path("class").asText()).isEqualTo("sim/sim");
    assertThat(classes.get(1).path("simulated").asBoolean()).isTrue();
  }
}
