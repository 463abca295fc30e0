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
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.worker.artifact.ArtifactCache;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * volume: host through a controller and a worker process: the worker advertises virtio-fs and 9p
 * (virtio-fs first: this host has QEMU's virtiofsd and the worker runs as root), the controller
 * leases it, both boots run the harness on the virtio-fs share of the generic kernel and record
 * the transport and its daemon; the cloud kernel (no 9p) on a 9p benchmark fails the experiment
 * as a configuration error.
 */
@Tag("e2e")
class HostVolumeFleetE2ETest {

  @Test
  void bothArmsRunOnTheHostsPreferredVirtiofsShareAndRecordTheTransportAndDaemon(@TempDir Path dir)
      throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      fleet.startWorker("w1");
      FleetProcessesE2ETest.awaitHosts(fleet, 1);
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        Experiment done = FleetProcessesE2ETest.awaitDone(client,
            client.submit("", spec(Kernels.generic(), "auto")), fleet);

        assertThat(done.getState()).as(done.getMessage() + "\n" + fleet.log("w1")).isEqualTo("completed");
        assertThat(FleetProcessesE2ETest.pairedBoots(done)).hasSize(2).allSatisfy(b -> {
          assertThat(b.getStatus()).isEqualTo("ok");
          assertThat(b.getTelemetry().getVolumeTransport()).isEqualTo("virtiofs");
          assertThat(b.getTelemetry().getVolumeOptions()).isEqualTo("rw");
          assertThat(b.getTelemetry().getVolumeDaemon()).matches("(qemu-)?virtiofsd.*");
          assertThat(b.getTelemetry().getVolumeDaemonCpuMs()).isPositive();
          assertThat(b.getHostClass()).isEqualTo("qemu/tcg volume=virtiofs");
          // the worker sampled this host around the boot
          var host = b.getTelemetry();
          assertThat(host.getHostPressure().getWindowMs()).isPositive();
          assertThat(host.getHostPressure().getHasPsi()).isEqualTo(Files.exists(Path.of("/proc/pressure/cpu")));
          // the worker's own CPU time holds its QEMU's and virtiofsd's (reaped children)
          assertThat(host.getHostPressure().getWorkerCpuMs()).isGreaterThanOrEqualTo(b.getTelemetry().getVolumeDaemonCpuMs());
          assertThat(host.getHostPressure().getWorkerCpuMs()).isGreaterThan(b.getTelemetry().getBootMs() / 2);
          assertThat(host.getHostPressure().getHostCpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
          assertThat(host.getHostFacts().getHypervisorVersion()).startsWith("QEMU emulator version");
          assertThat(host.getHostFacts().getMemoryMib()).isPositive();
        });
      }
    }
  }

  @Test
  void theCloudKernelFailsTheExperimentAsAConfigurationErrorNotABootFailure(@TempDir Path dir) throws Exception {
    try (LocalProcesses fleet = new LocalProcesses(dir)) {
      fleet.startController();
      fleet.startWorker("w1");
      FleetProcessesE2ETest.awaitHosts(fleet, 1);
      try (ExperimentClient client = new ExperimentClient(fleet.target())) {
        Experiment done = FleetProcessesE2ETest.awaitDone(client, client.submit("", spec(Kernels.cloud(), "9p")), fleet);

        assertThat(done.getState()).isEqualTo("failed");
        assertThat(done.getMessage()).contains("kernel 6.1.0-50-cloud-amd64 has no modules 9pnet_virtio, 9p")
            .contains("e.g. Debian's linux-image-6.1.0-50-amd64");
        assertThat(done.getBootsList()).extracting(Boot::getStatus).doesNotContain("boot_failed");
        System.out.println("experiment message: " + done.getMessage());
      }
    }
  }

  private static ExperimentSpec spec(Path k, String transport) throws Exception {
    Artifact kernel = Artifact.newBuilder().setSha256(ArtifactCache.sha256(k)).setUri(k.toString()).build();
    return ExperimentSpec.newBuilder()
        .setName("e2e-volume")
        .addArms(Arm.newBuilder().setName("a").setRole("baseline").mergeBoot(BootSpec.newBuilder().setKernel(kernel).build()))
        .addArms(Arm.newBuilder().setName("b").setRole("candidate").setBoot(BootSpec.newBuilder().setKernel(kernel)))
        // negative_lookup: every lookup reaches the daemon even with cache=auto, so its CPU time
        // is some ticks (metadata_stat is answered from the guest's cache: 0-10 ms of daemon CPU).
        .setBenchmark(Benchmark.newBuilder().setHarness("fleetbench").addMetrics("negative_lookup")
            .setIterations(3).setIterationMs(100).setVolume("host").setTransport(transport))
        .setSelector(HostSelector.newBuilder().setHypervisor("qemu"))
        .setPolicy(Policy.newBuilder().setPairs(1).setBootTimeoutS(180))
        .setPriority("pr")
        .build();
  }
}
