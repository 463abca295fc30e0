package dev.abfleet.cli.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.MainRun;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadFloodBenchCommandTest {
  @Test
  void readsListingsAndExperimentsOfARunningControllerWithoutFailures(@TempDir Path dir) throws Exception {
    ControllerSettings settings = ControllerSettings.defaults().withGrpc("127.0.0.1", 0)
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store")))
        .withLimits(dev.abfleet.model.Limits.unlimited());
    try (ControllerNode node = ControllerNode.start(settings)) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", node.grpcPort()).usePlaintext().build();
      try {
        for (int i = 0; i < 3; i++) {
          ExperimentServiceGrpc.newBlockingStub(channel).submitExperiment(SubmitExperimentRequest.newBuilder()
              .setExperimentId("e-read-" + i).setSpec(ListBenchCommand.placeholderSpec("read-flood")).build());
        }
      } finally {
        channel.shutdownNow();
      }
      MainRun.Result r = MainRun.run("bench", "read-flood", "--controller", "127.0.0.1:" + node.grpcPort(),
          "--clients", "2", "--seconds", "2", "--largest", "2");
      assertThat(r.exit()).as(r.out() + r.err()).isZero();
      Matcher lists = Pattern.compile("ListExperiments \\(page of 1000\\): (\\d+) calls.*failed none").matcher(r.out());
      Matcher gets = Pattern.compile("GetExperiment \\(a boots page\\): (\\d+) calls.*failed none").matcher(r.out());
      assertThat(lists.find()).as(r.out()).isTrue();
      assertThat(gets.find()).as(r.out()).isTrue();
      assertThat(Integer.parseInt(lists.group(1))).isPositive();
      assertThat(Integer.parseInt(gets.group(1))).isPositive();
    }
  }

  @Test
  void rejectsAControllerWithoutPort() {
    MainRun.Result r = MainRun.run("bench", "read-flood", "--controller", "localhost");
    assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).contains("--controller localhost: expected HOST:PORT");
  }
}
