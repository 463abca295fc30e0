package dev.abfleet.worker.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SimModelTest {

  @Test
  void defaultsSimulateEveryFleetbenchMetric() {
    SimModel m = SimModel.defaults();

    assertThat(m.metricNames()).containsExactly("metadata_stat", "negative_lookup", "create_delete", "seq_read",
        "find_recursive", "rm_rf");
    assertThat(m.metric("metadata_stat").orElseThrow().base()).isEqualTo(80_000);
    assertThat(m.metric("seq_read").orElseThrow().unit()).isEqualTo("MiB/s");
  }

  @Test
  void rejectsANonPositiveBaseNamingTheField() {
    assertThatThrownBy(() -> SimMetric.opsPerSecond("metadata_stat", -1, 0.05))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("metrics.metadata_stat.base is -1.0; expected a number > 0");
  }

  @Test
  void rejectsAFailRateAboveOne() {
    assertThatThrownBy(() -> SimModel.defaults().withFailRate(1.5))
        .hasMessageContaining("fail_rate is 1.5; expected a probability from 0 to 1");
  }

  @Test
  void rejectsANegativeTimeScale() {
    assertThatThrownBy(() -> SimModel.defaults().withTimeScale(-0.1))
        .hasMessageContaining("time_scale is -0.1");
  }

  @Test
  void rejectsAMetricDefinedTwice() {
    var m = SimMetric.opsPerSecond("metadata_stat", 1, 0.1);
    assertThatThrownBy(() -> new SimModel(1, 1, List.of(m, m), SimBootTiming.defaults(), SimNoise.defaults(), 0))
        .hasMessageContaining("metric 'metadata_stat' is defined twice");
  }

  @Test
  void hostOffsetsFollowTheSeedAndTheHostId() {
    SimModel model = SimModel.defaults();

    assertThat(SimHost.of(model, "sim-0001")).isEqualTo(SimHost.of(model, "sim-0001"));
    assertThat(SimHost.of(model, "sim-0001").offsets()).isNotEqualTo(SimHost.of(model, "sim-0002").offsets());
    assertThat(SimHost.of(model.withSeed(2), "sim-0001").offsets())
        .isNotEqualTo(SimHost.of(model, "sim-0001").offsets());
  }
}
