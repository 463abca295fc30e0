package dev.abfleet.worker.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SimModelYamlTest {

  @Test
  void readsEverySection() {
    SimModel m = SimModelYaml.parse("model.yaml", """
        seed: 7
        time_scale: 0.01
        fail_rate: 0.05
        host_sigma: 0.1
        metrics:
          metadata_stat: {base: 31800, boot_sigma: 0.2}
          latency: {base: 12.5, unit: us, better: lower}
        boot: {median_s: 3, sigma: 0.1, slow_rate: 0.02, slow_factor: 5, shutdown_s: 0.5}
        drift: {amplitude: 0.05, period_s: 600}
        outliers: {rate: 0.03, factor: 0.5}
        bimodal: {rate: 0.2, factor: 0.8}
        """);

    assertThat(m.seed()).isEqualTo(7);
    assertThat(m.timeScale()).isEqualTo(0.01);
    assertThat(m.failRate()).isEqualTo(0.05);
    assertThat(m.metrics()).containsExactly(
        new SimMetric("metadata_stat", 31800, "ops/s", "higher", 0.2, 0.02),
        new SimMetric("latency", 12.5, "us", "lower", 0.05, 0.02));
    assertThat(m.boot()).isEqualTo(new SimBootTiming(3, 0.1, 0.02, 5, 0.5));
    assertThat(m.noise()).isEqualTo(new SimNoise(0.1, 0.05, 600, 0.03, 0.5, 0.2, 0.8));
  }

  @Test
  void anEmptyFileIsTheDefaultModel() {
    assertThat(SimModelYaml.parse("empty.yaml", "")).isEqualTo(SimModel.defaults());
  }

  @Test
  void rejectsAnUnknownKeyNamingTheFileAndTheValidKeys() {
    assertThatThrownBy(() -> SimModelYaml.parse("model.yaml", "boot: {median: 3}\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("model.yaml: unknown key 'median' under boot; expected one of median_s,");
  }

  @Test
  void rejectsANewMetricWithoutABase() {
    assertThatThrownBy(() -> SimModelYaml.parse("model.yaml", "metrics:\n  latency: {unit: us}\n"))
        .hasMessage("model.yaml: metrics.latency.base is missing; give the metric's median value, e.g. base: 1000");
  }

  @Test
  void rejectsATextWhereANumberBelongs() {
    assertThatThrownBy(() -> SimModelYaml.parse("model.yaml", "fail_rate: often\n"))
        .hasMessage("model.yaml: fail_rate is 'often'; expected a number");
  }

  @Test
  void rejectsAnOutOfRangeValueFromTheFile() {
    assertThatThrownBy(() -> SimModelYaml.parse("model.yaml", "outliers: {rate: 2}\n"))
        .hasMessageContaining("model.yaml: sim model: outliers.rate is 2.0; expected a probability from 0 to 1");
  }
}
