package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.ListNoiseRequest;
import dev.abfleet.proto.fleet.v1.MergeNoiseRequest;
import dev.abfleet.proto.fleet.v1.MetricNoise;
import dev.abfleet.proto.fleet.v1.NoiseMoments;
import dev.abfleet.proto.fleet.v1.NoiseRecord;
import dev.abfleet.proto.fleet.v1.NoiseServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoiseServiceTest extends ControllerNodeTest {

  private static NoiseRecord measured(String date, long experiments, double... diffs) {
    // Moments of the diffs computed by hand: n, mean, sum of squared deviations.
    double mean = java.util.Arrays.stream(diffs).average().orElse(0);
    double m2 = java.util.Arrays.stream(diffs).map(d -> (d - mean) * (d - mean)).sum();
    var m = MetricNoise.newBuilder().setMetric("metadata_stat")
        .setBootMedians(NoiseMoments.newBuilder().setN(2L * diffs.length).setMean(31800).setM2(1.2e5))
        .setPairedLogRatios(NoiseMoments.newBuilder().setN(diffs.length).setMean(mean).setM2(m2));
    for (double d : diffs) {
      m.addRecentLogRatios(d);
    }
    return NoiseRecord.newBuilder().setHostClass("qemu/tcg").setExperiments(experiments).setFalsePositives(0)
        .setDate(date).addGatingMetrics("metadata_stat").addMetrics(m).build();
  }

  @Test
  void aMergedRecordSurvivesAControllerRestartOnTheSameStore(@TempDir Path dir) {
    ControllerSettings settings = fastSettings()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("controller")));
    NoiseRecord merged;
    try (ControllerNode first = ControllerNodeTest.inProcess(settings)) {
      ManagedChannel channel = channel(first);
      var noise = NoiseServiceGrpc.newBlockingStub(channel);
      noise.mergeNoise(MergeNoiseRequest.newBuilder().setRecord(measured("2026-12-01", 1, 0.01, -0.02, 0.005)).build());
      merged = noise.mergeNoise(MergeNoiseRequest.newBuilder()
          .setRecord(measured("2026-12-03", 2, 0.03, 0.0)).build()).getRecord();
      channel.shutdownNow();
    }
    assertThat(merged.getExperiments()).isEqualTo(3);
    assertThat(merged.getDate()).isEqualTo("2026-12-03");
    assertThat(merged.getMetrics(0).getPairedLogRatios().getN()).isEqualTo(5);
    assertThat(merged.getMetrics(0).getRecentLogRatiosList()).containsExactly(0.01, -0.02, 0.005, 0.03, 0.0);

    try (ControllerNode second = ControllerNodeTest.inProcess(settings)) {
      ManagedChannel channel = channel(second);
      var list = NoiseServiceGrpc.newBlockingStub(channel).listNoise(ListNoiseRequest.getDefaultInstance());
      channel.shutdownNow();
      assertThat(list.getRecordsList()).containsExactly(merged);
    }
  }

  @Test
  void rejectsARecordWhoseDateIsNotADay() throws Exception {
    try (ControllerNode node = ControllerNodeTest.inProcess(fastSettings())) {
      ManagedChannel channel = channel(node);
      var noise = NoiseServiceGrpc.newBlockingStub(channel);
      assertThatThrownBy(() -> noise.mergeNoise(MergeNoiseRequest.newBuilder()
          .setRecord(measured("yesterday", 1, 0.01, 0.02)).build()))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
            assertThat(e.getStatus().getDescription()).contains("qemu/tcg", "'yesterday'", "yyyy-mm-dd");
          });
      assertThat(noise.listNoise(ListNoiseRequest.getDefaultInstance()).getRecordsList()).isEmpty();
      channel.shutdownNow();
    }
  }
}
