package dev.abfleet.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Sums over a /metrics page. */
class MetricsTextTest {
  private static final String PAGE = """
      # HELP abfleet_grpc_calls_total gRPC calls ended, by method and status code.
      # TYPE abfleet_grpc_calls_total counter
      abfleet_grpc_calls_total{code="CANCELLED",method="fleet.v1.WorkerService/Connect"} 3.0
      abfleet_grpc_calls_total{code="UNAVAILABLE",method="fleet.v1.WorkerService/Connect"} 4.0
      abfleet_grpc_calls_total{code="OK",method="fleet.v1.ExperimentService/ListHosts"} 40.0
      abfleet_grpc_calls_total_created{code="OK",method="fleet.v1.ExperimentService/ListHosts"} 1.7E9
      abfleet_connected_hosts 100.0
      """;

  @Test
  void sumsTheSamplesWhoseLabelsMatch() {
    assertThat(MetricsText.sum(PAGE, "abfleet_grpc_calls_total", "WorkerService/Connect")).isEqualTo(7.0);
    assertThat(MetricsText.sum(PAGE, "abfleet_grpc_calls_total", "")).isEqualTo(47.0);
    assertThat(MetricsText.sum(PAGE, "abfleet_connected_hosts", "")).isEqualTo(100.0);
  }

  @Test
  void readsAnAbsentMetricAsZero() {
    assertThat(MetricsText.sum(PAGE, "abfleet_dropped_commands_total", "")).isZero();
  }
}
