package dev.abfleet.cli.e2e;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.worker.artifact.ArtifactCache;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A controller and two worker processes on loopback booting a real kernel in QEMU. */
@Tag("e2e")
class FleetProcessesE2ETest {

  @Test
  void pairsSpreadOverBothWorkersAndEachPairStaysOnOneWorker(@TempDir Path dir) throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      fleet.startWorker("w1");
      fleet.startWorker("w2");
      awaitHosts(fleet, 2);
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        String id = client.submit("", spec(4, List.of("w1", "w2")));
        Experiment done = awaitDone(client, id, fleet);
        assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
        assertThat(done.getPairsDone()).isEqualTo(4);
        Map<Integer, List<Boot>> byPair = pairs(done);
        Set<String> hosts = new HashSet<>();
        byPair.forEach((pair, boots) -> {
          assertThat(boots).as("pair %d", pair).hasSize(2);
          assertThat(boots.get(0).getHostId()).as("pair %d on one host", pair).isEqualTo(boots.get(1).getHostId());
          assertThat(boots.get(0).getLeaseEpoch()).as("pair %d in one lease", pair).isEqualTo(boots.get(1).getLeaseEpoch());
          assertThat(boots.stream().map(Boot::getOrderInPair)).containsExactlyInAnyOrder(0, 1);
          hosts.add(boots.get(0).getHostId());
        });
        assertThat(hosts).containsExactlyInAnyOrder("w1", "w2");
      }
    }
  }

  @Test
  void workerKilledDuringABootLosesItsLeaseAndThePairRunsAgain(@TempDir Path dir) throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      Map<String, Process> workers = Map.of("w1", fleet.startWorker("w1"), "w2", fleet.startWorker("w2"));
      awaitHosts(fleet, 2);
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        String id = client.submit("", spec(3, List.of("w1", "w2")));
        String victim = awaitLeasedHost(fleet);
        Thread.sleep(3000); // inside the first boot of the block
        workers.get(victim).destroyForcibly(); // SIGKILL: no goodbye on the stream
        Experiment done = awaitDone(client, id, fleet);
        assertThat(done.getState()).as(done.getMessage()).isEqualTo("completed");
        assertThat(done.getPairsDone()).isEqualTo(3);
        assertThat(done.getRetriedBlocks()).isGreaterThanOrEqualTo(1);
        Set<String> runIds = new HashSet<>();
        Set<String> pairArm = new HashSet<>();
        for (Boot b : pairedBoots(done)) {
          assertThat(runIds.add(b.getRunId())).as("run recorded once: " + b.getRunId()).isTrue();
          assertThat(pairArm.add(b.getPairIndex() + "/" + b.getArm())).as("one boot per arm and pair").isTrue();
        }
        assertThat(pairedBoots(done)).hasSize(6);
        pairs(done).forEach((pair, boots) ->
            assertThat(boots.get(0).getHostId()).isEqualTo(boots.get(1).getHostId()));
      }
    }
  }

  static ExperimentSpec spec(int pairs, List<String> hosts) throws Exception {
    Path k = Kernels.cloud();
    Artifact kernel = Artifact.newBuilder().setSha256(ArtifactCache.sha256(k)).setUri(k.toString()).build();
    return ExperimentSpec.newBuilder()
        .setName("e2e")
        .addArms(Arm.newBuilder().setName("a").setRole("baseline").mergeBoot(BootSpec.newBuilder().setKernel(kernel).build()))
        .addArms(Arm.newBuilder().setName("b").setRole("candidate").setBoot(BootSpec.newBuilder().setKernel(kernel)))
        .setBenchmark(Benchmark.newBuilder().setHarness("fleetbench").addMetrics("metadata_stat")
            .addMetrics("create_delete").setIterations(3).setIterationMs(100))
        .setSelector(HostSelector.newBuilder().setHypervisor("qemu").addAllHosts(hosts))
        .setPolicy(Policy.newBuilder().setPairs(pairs).setBootTimeoutS(120)
            .setHostQuiet(LocalProcesses.SHARED_MACHINE))
        .setPriority("pr")
        .build();
  }

  /**
   * The boots of an experiment's pairs: without those of pairs the default quiet-host policy ran
   * again because a busy neighbour disturbed them (rerun, never in a verdict).
   */
  static List<Boot> pairedBoots(Experiment e) {
    return e.getBootsList().stream().filter(b -> !b.getRerun()).toList();
  }

  static Map<Integer, List<Boot>> pairs(Experiment e) {
    Map<Integer, List<Boot>> m = new HashMap<>();
    pairedBoots(e).forEach(b -> m.computeIfAbsent(b.getPairIndex(), k -> new java.util.ArrayList<>()).add(b));
    return m;
  }

  static Experiment awaitDone(ExperimentClient client, String id, LocalProcesses fleet) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    while (System.nanoTime() < deadline) {
      Experiment e = client.get(id);
      if (Set.of("completed", "failed", "cancelled").contains(e.getState())) {
        return e;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("experiment did not finish; controller log:\n" + fleet.log("controller"));
  }

  static List<Host> hosts(LocalProcesses fleet) {
    ManagedChannel ch = NettyChannelBuilder.forTarget(fleet.target()).usePlaintext().build();
    try {
      return ExperimentServiceGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
          .listHosts(ListHostsRequest.getDefaultInstance()).getHostsList();
    } finally {
      ch.shutdownNow();
    }
  }

  static void awaitHosts(LocalProcesses fleet, int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (hosts(fleet).stream().filter(h -> !h.getState().equals("offline")).count() >= n) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("workers did not register; w1 log:\n" + fleet.log("w1"));
  }

  static String awaitLeasedHost(LocalProcesses fleet) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      Optional<Host> leased = hosts(fleet).stream().filter(h -> h.getState().equals("leased")).findFirst();
      if (leased.isPresent()) {
        return leased.get().getHostId();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no host was leased");
  }
}
