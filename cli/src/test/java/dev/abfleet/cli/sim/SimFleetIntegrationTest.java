package dev.abfleet.cli.sim;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.bench.sim.SimFleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real controller and four sim workers over loopback gRPC, one experiment end to end. */
class SimFleetIntegrationTest {
  @TempDir Path home;

  @Test
  @Timeout(60)
  void aHalvedMetricOnTheCandidateIsReportedRegressedFromSimBoots() throws Exception {
    SimModel model = SimModel.defaults().withTimeScale(0.01);
    try (ControllerNode controller = ControllerNode.start(ControllerSettings.inMemory());
        SimFleet fleet = SimFleet.start("127.0.0.1:" + controller.grpcPort(), 4, "sim-", model, Map.of(), home,
            r -> { });
        ExperimentClient client = new ExperimentClient("127.0.0.1:" + controller.grpcPort())) {
      String id = client.submit("sim-it", ExperimentSpec.newBuilder()
          .addArms(Arm.newBuilder().setName("base").setRole("baseline")
              .mergeBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(home.resolve("kernels"), "base")).build()))
          .addArms(Arm.newBuilder().setName("slow").setRole("candidate")
              .setBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(home.resolve("kernels"), "slow"))
              .setCmdlineExtra("sim.effect.metadata_stat=0.5")))
          .setBenchmark(Benchmark.newBuilder().setIterations(3).setIterationMs(100))
          .setSelector(HostSelector.newBuilder().setHypervisor("sim"))
          .setPolicy(Policy.newBuilder().setPairs(8).setSeed(42))
          .setPriority("pr")
          .build());

      Experiment done = client.watch(id, e -> { });

      assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
      assertThat(done.getPairsDone()).isEqualTo(8);
      assertThat(done.getComparisonsList()).filteredOn(c -> c.getMetric().equals("metadata_stat"))
          .singleElement().extracting(Comparison::getVerdict).isEqualTo("regressed");
      assertThat(done.getBootsList()).hasSize(16).allSatisfy(b -> {
        assertThat(b.getTelemetry().getHypervisor()).isEqualTo("sim");
        assertThat(b.getTelemetry().getAccelerator()).isEqualTo("sim");
      });
      assertThat(done.getBootsList()).extracting(Boot::getHostId).allMatch(fleet.hostIds()::contains);
      // Sim hosts ran their blocks on the fleet's shared pool and timer: no thread per block (a
      // real host's block thread outlives its block by a minute, so one would still be here).
      assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
          .noneMatch(n -> n.equals("abfleet-block-executor"));
    }
  }
}
