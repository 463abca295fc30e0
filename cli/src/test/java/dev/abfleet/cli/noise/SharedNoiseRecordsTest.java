package dev.abfleet.cli.noise;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.cli.MainRun;
import dev.abfleet.cli.SimController;
import dev.abfleet.controller.noise.NoiseProto;
import dev.abfleet.proto.fleet.v1.ListNoiseRequest;
import dev.abfleet.proto.fleet.v1.NoiseServiceGrpc;
import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two clients with different homes and one controller (in-process, two sim workers over loopback
 * gRPC): what the first one calibrates is what the second one's report quotes.
 */
class SharedNoiseRecordsTest {
  @TempDir static Path workers;
  @TempDir Path homes;
  static SimController fleet;

  @BeforeAll
  static void startFleet() throws Exception {
    fleet = SimController.start(2, "sim-", SimModel.defaults().withTimeScale(0.001), workers);
  }

  @AfterAll
  static void stopFleet() {
    fleet.close();
  }

  @AfterEach
  void clearHome() {
    System.clearProperty("abfleet.home");
  }

  static String address() {
    return fleet.address();
  }

  /** Runs {@code abfleet ARGS} with {@code home} as its home; returns its stdout. */
  private static String abfleet(Path home, String... args) {
    System.setProperty("abfleet.home", home.toString());
    MainRun.Result r = MainRun.run(args);
    assertThat(r.exit()).as(r.out() + r.err()).isIn(0, 1);
    return r.out();
  }

  private static NoiseRecord controllersRecord(String hostClass) {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", fleet.grpcPort()).usePlaintext().build();
    try {
      return NoiseServiceGrpc.newBlockingStub(channel).listNoise(ListNoiseRequest.getDefaultInstance())
          .getRecordsList().stream().map(NoiseProto::fromProto).filter(r -> r.hostClass().equals(hostClass))
          .findFirst().orElseThrow();
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  @Timeout(180)
  void aSecondClientWithAnotherHomeQuotesTheRecordTheFirstOneMerged() throws Exception {
    Path first = Files.createDirectories(homes.resolve("first"));
    Path second = Files.createDirectories(homes.resolve("second"));
    abfleet(first, "calibrate", "--real", "--controller", address(), "--hypervisor", "sim", "--experiments", "2",
        "--pairs", "4");
    NoiseRecord recorded = controllersRecord("sim/sim");
    assertThat(recorded.experiments()).isEqualTo(2);
    // The first client keeps its copy for offline use.
    assertThat(NoiseStore.inHome(first).load("sim/sim")).contains(recorded);

    String kernel = SimArtifacts.kernel(second.resolve("kernels"), "same", Map.of()).getUri();
    String report = abfleet(second, "ab", "--controller", address(), "--hypervisor", "sim", "--metrics",
        "metadata_stat", "--iterations", "3", "--seed", "42", "--baseline", "base=" + kernel, "--candidate",
        "twin=" + kernel, "--pairs", "4", "--format", "json");

    assertThat(second.resolve("noise")).doesNotExist();
    JsonNode quoted = new ObjectMapper().readTree(report).path("noise_calibration");
    assertThat(quoted.size()).as(report).isEqualTo(1);
    JsonNode q = quoted.get(0);
    assertThat(q.path("class").asText()).isEqualTo("sim/sim");
    assertThat(q.path("experiments").asLong()).isEqualTo(recorded.experiments());
    JsonNode metadata = null;
    for (JsonNode m : q.path("metrics")) {
      if (m.path("metric").asText().equals("metadata_stat")) {
        metadata = m;
      }
    }
    assertThat(metadata).as(report).isNotNull();
    assertThat(metadata.path("pairs").asLong()).isEqualTo(8);
    assertThat(metadata.path("paired_sd").asDouble()).isEqualTo(recorded.metric("metadata_stat").pairedSd());

    // plan --controller plans from the same record; without it the empty home has none.
    String plan = abfleet(second, "plan", "--mde", "10%", "--controller", address());
    assertThat(plan).as(plan).containsPattern("sim/sim \\(SIMULATION\\)\\s+metadata_stat\\s+\\d+(\\.\\d+)?%\\s+8\\s");
  }
}
