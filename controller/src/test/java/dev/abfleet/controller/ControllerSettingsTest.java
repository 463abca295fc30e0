package dev.abfleet.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControllerSettingsTest {
  @Test
  void aBuilderChangesWhatItIsToldAndKeepsTheRest() {
    ControllerSettings base = ControllerSettings.inMemory();

    ControllerSettings s = base.toBuilder().grpc("0.0.0.0", 7443).cluster("10.0.0.2", 25520, List.of("10.0.0.1:25520"))
        .metricsPort(9464).snapshotEvery(0).build();

    assertThat(s.grpcHost()).isEqualTo("0.0.0.0");
    assertThat(s.grpcPort()).isEqualTo(7443);
    assertThat(s.seedNodes()).containsExactly("10.0.0.1:25520");
    assertThat(s.metricsPort()).isEqualTo(9464);
    assertThat(s.snapshotEvery()).isZero();
    assertThat(s).usingRecursiveComparison()
        .ignoringFields("grpcHost", "grpcPort", "clusterHost", "clusterPort", "seedNodes", "metricsPort", "snapshotEvery")
        .isEqualTo(base);
  }

  @Test
  void withIsTheBuilderForOneSetting() {
    ControllerSettings base = ControllerSettings.inMemory();

    assertThat(base.withHeartbeatInterval(Duration.ofMillis(200)))
        .isEqualTo(base.toBuilder().heartbeat(Duration.ofMillis(200), Duration.ofMillis(1000)).build());
    assertThat(base.withDashboardPort(8080)).isEqualTo(base.toBuilder().dashboardPort(8080).build());
  }

  @Test
  void theBuilderChecksWhatTheRecordChecks() {
    assertThatThrownBy(() -> ControllerSettings.inMemory().toBuilder().metricsPort(70000).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("metrics port 70000");
  }
}
