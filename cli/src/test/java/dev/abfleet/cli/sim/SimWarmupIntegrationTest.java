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
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Policy warmup_boot end to end: a real controller and two sim workers over loopback gRPC. */
class SimWarmupIntegrationTest {
  @TempDir Path home;

  @Test
  @Timeout(60)
  void warmupBootsAreListedMarkedAndLeaveThePairsAlone() throws Exception {
    SimModel model = SimModel.defaults().withTimeScale(0.01);
    try (ControllerNode controller = ControllerNode.start(ControllerSettings.inMemory());
        SimFleet fleet = SimFleet.start("127.0.0.1:" + controller.grpcPort(), 2, "sim-", model, Map.of(), home,
            r -> { });
        ExperimentClient client = new ExperimentClient("127.0.0.1:" + controller.grpcPort())) {
      String id = client.submit("sim-warmup", ExperimentSpec.newBuilder()
          .addArms(Arm.newBuilder().setName("base").setRole("baseline")
              .mergeBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(home.resolve("kernels"), "base")).build()))
          .addArms(Arm.newBuilder().setName("cand").setRole("candidate")
              .setBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(home.resolve("kernels"), "cand"))))
          .setBenchmark(Benchmark.newBuilder().setIterations(3).setIterationMs(100))
          .setSelector(HostSelector.newBuilder().setHypervisor("sim"))
          .setPolicy(Policy.newBuilder().setPairs(6).setSeed(42).setWarmupBoot(true))
          .setPriority("pr")
          .build());

      Experiment done = client.watch(id, e -> { });

      assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
      assertThat(done.getPairsDone()).isEqualTo(6);
      assertThat(done.getSpec().getPolicy().getWarmupBoot()).isTrue();
      List<Boot> warmups = done.getBootsList().stream().filter(Boot::getWarmup).toList();
      List<Boot> measured = done.getBootsList().stream().filter(b -> !b.getWarmup()).toList();
      assertThat(measured).hasSize(12);
      Set<String> pairArm = new HashSet<>();
      measured.forEach(b -> assertThat(pairArm.add(b.getPairIndex() + "/" + b.getArm())).isTrue());
      Set<String> hostsWithPairs = new HashSet<>();
      measured.forEach(b -> hostsWithPairs.add(b.getHostId()));
      assertThat(warmups).isNotEmpty().allSatisfy(b -> assertThat(b.getArm()).isEqualTo("base"));
      assertThat(warmups).extracting(Boot::getHostId).containsAll(hostsWithPairs);
      assertThat(done.getComparisonsList()).allSatisfy(c -> assertThat(c.getNPairs()).isEqualTo(6));
    }
  }
}
