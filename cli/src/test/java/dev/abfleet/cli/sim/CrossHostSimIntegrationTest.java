package dev.abfleet.cli.sim;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.bench.sim.SimFleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.controller.report.ProtoReports;
import dev.abfleet.report.TextReport;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real controller and sim workers of two host classes (label cpu=a and cpu=b) over loopback
 * gRPC: the candidate regresses on cpu=b hosts only.
 */
class CrossHostSimIntegrationTest {
  @TempDir Path home;

  @Test
  @Timeout(90)
  void aRegressionOnOneHostClassOnlyGivesDifferentClassVerdictsAndNoPooledVerdict() throws Exception {
    SimModel model = SimModel.defaults().withTimeScale(0.01);
    try (ControllerNode controller = ControllerNode.start(ControllerSettings.inMemory());
        SimFleet a = SimFleet.start("127.0.0.1:" + controller.grpcPort(), 2, "a-", model,
            Map.of("cpu", "a"), home.resolve("a"), r -> { });
        SimFleet b = SimFleet.start("127.0.0.1:" + controller.grpcPort(), 2, "b-", model,
            Map.of("cpu", "b"), home.resolve("b"), r -> { });
        ExperimentClient client = new ExperimentClient("127.0.0.1:" + controller.grpcPort())) {
      // Both classes must be connected before the experiment starts: a class that comes after
      // every class seen has its pairs is not waited for.
      SimFleet.awaitHosts("127.0.0.1:" + controller.grpcPort(), 4, 30);
      String id = client.submit("cross-host", ExperimentSpec.newBuilder()
          .addArms(Arm.newBuilder().setName("base").setRole("baseline")
              .mergeBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(home.resolve("kernels"), "base")).build()))
          .addArms(Arm.newBuilder().setName("cand").setRole("candidate")
              .setBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(home.resolve("kernels"), "cand"))
              .setCmdlineExtra("sim.effect.metadata_stat@b-=0.6")))
          .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat").setIterations(3)
              .setIterationMs(100))
          .setSelector(HostSelector.newBuilder().setHypervisor("sim"))
          .setPolicy(Policy.newBuilder().setPairs(8).setSeed(42).addClassBy("label:cpu"))
          .setPriority("pr")
          .build());

      Experiment done = client.watch(id, e -> { });

      assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
      assertThat(done.getPairsDone()).isEqualTo(16);
      assertThat(done.getBootsList()).extracting(Boot::getHostClass)
          .containsOnly("sim/sim cpu=a", "sim/sim cpu=b");
      assertThat(done.getBootsList()).filteredOn(x -> x.getHostClass().endsWith("cpu=b"))
          .hasSize(16).allMatch(x -> x.getHostId().startsWith("b-"));
      List<Comparison> rows = done.getComparisonsList();
      assertThat(rows).extracting(Comparison::getHostClass)
          .containsExactly("", "sim/sim cpu=a", "sim/sim cpu=b");
      assertThat(rows.get(1).getVerdict()).isNotEqualTo("regressed");
      assertThat(rows.get(2).getVerdict()).isEqualTo("regressed");
      assertThat(rows.get(0).getVerdict()).isEqualTo("inconclusive");
      assertThat(rows.get(0).getReasonsList()).containsExactly("class_heterogeneity");
      assertThat(done.getOverall()).isEqualTo("regressed");
      System.out.println(TextReport.render(ProtoReports.of(done)));
    }
  }
}
