package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.vm.VmDriver;
import dev.abfleet.worker.vm.qemu.QemuDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code volume: host} for real: the Debian generic kernel boots in QEMU (TCG here), /init loads
 * the 9p modules resolved from the kernel's own module tree, mounts the worker's fresh host
 * directory over virtio-9p and runs fleetbench on it; the same over virtio-fs, served by the
 * host's virtiofsd (Debian 12: QEMU's own C daemon, the worker running as root). Downloads the
 * kernel packages into the abfleet cache on first use.
 */
@Tag("e2e")
class HostVolumeE2ETest {

  private static final String HOST = "e2e-volume";

  @Test
  void runsTheHarnessOnANinePShareOfTheGenericKernel() throws Exception {
    Path kernel = TestKernels.genericKernel();

    WorkerMessage report = execute(run("v1", kernel));

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage() + "\n"
        + report.getRunFailure().getConsoleTail()).isTrue();
    var telemetry = report.getRunResult().getTelemetry();
    assertThat(telemetry.getVolumeTransport()).isEqualTo("9p");
    assertThat(telemetry.getVolumeOptions()).isEqualTo("trans=virtio,version=9p2000.L,msize=512000");
    assertThat(telemetry.getKernelRelease()).isEqualTo("6.1.0-50-amd64");
    assertThat(report.getRunResult().getSamplesList()).extracting(MetricSample::getMetric)
        .contains("metadata_stat", "create_delete");
    Path console = WorkerSettings.defaultHome().resolve("runs").resolve(HOST).resolve("v1-e1").resolve("console.log");
    String log = Files.readString(console);
    assertThat(log).as("the guest mounted the share").contains("abfleet-vol /mnt/host 9p");
    assertThat(WorkerSettings.defaultHome().resolve("volumes").resolve("v1-e1")).doesNotExist();
    System.out.printf("generic kernel on 9p: boot %d ms, run %d ms, stage %d ms%n%s%n", telemetry.getBootMs(),
        telemetry.getRunMs(), telemetry.getStageMs(), report.getRunResult().getSamplesList().stream()
            .map(s -> "  " + s.getMetric() + " " + s.getIteration() + " " + s.getValue() + " " + s.getUnit())
            .reduce((a, b) -> a + "\n" + b).orElse(""));
  }

  @Test
  void runsTheHarnessOnAVirtiofsShareOfTheGenericKernelAndMeasuresItsDaemon() throws Exception {
    Path kernel = TestKernels.genericKernel();

    WorkerMessage report = execute(run("v4", kernel, "virtiofs"));

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage() + "\n"
        + report.getRunFailure().getConsoleTail()).isTrue();
    var telemetry = report.getRunResult().getTelemetry();
    assertThat(telemetry.getVolumeTransport()).isEqualTo("virtiofs");
    assertThat(telemetry.getVolumeDaemon()).matches("(qemu-)?virtiofsd.*");
    assertThat(telemetry.getVolumeDaemonOptions()).isEqualTo("cache=auto");
    assertThat(telemetry.getVolumeDaemonCpuMs()).isPositive();
    assertThat(telemetry.getVolumeDaemonThreads()).isPositive();
    Path console = WorkerSettings.defaultHome().resolve("runs").resolve(HOST).resolve("v4-e1").resolve("console.log");
    assertThat(Files.readString(console)).as("the guest mounted the share").contains("abfleet-vol /mnt/host virtiofs");
    Path daemonLog = WorkerSettings.defaultHome().resolve("runs").resolve(HOST).resolve("v4-e1").resolve("virtiofsd.stderr");
    assertThat(daemonLog).as("the daemon's stderr is kept with the boot").exists();
    System.out.printf("generic kernel on virtio-fs (%s): boot %d ms, run %d ms, daemon %d ms CPU, %d threads%n",
        telemetry.getVolumeDaemon(), telemetry.getBootMs(), telemetry.getRunMs(), telemetry.getVolumeDaemonCpuMs(),
        telemetry.getVolumeDaemonThreads());
  }

  @Test
  void failsTheCloudKernelAsAConfigurationErrorNamingTheMissingModule() throws Exception {
    Path kernel = TestKernels.cloudKernel();

    WorkerMessage report = execute(run("v2", kernel));

    assertThat(report.hasRunFailure()).isTrue();
    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage())
        .startsWith("kernel 6.1.0-50-cloud-amd64 has no modules 9pnet_virtio, 9p (")
        .endsWith("e.g. Debian's linux-image-6.1.0-50-amd64")
        .doesNotContain("\n");
    assertThat(report.getRunFailure().getTelemetry().getVolumeTransport()).isEqualTo("9p");
    System.out.println("cloud kernel: " + report.getRunFailure().getMessage());
  }

  @Test
  void reportsTheGuestsMissingNinePFileSystemAsAConfigurationErrorWhenNoTreeLiesBesideTheKernel(
      @TempDir Path tmp) throws Exception {
    Path kernel = Files.copy(TestKernels.cloudKernel(), tmp.resolve("bzImage"));

    WorkerMessage report = execute(run("v3", kernel));

    assertThat(report.hasRunFailure()).isTrue();
    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage())
        .startsWith("guest setup failed: mount 9p: the kernel has no 9p file system")
        .contains("no module tree lies beside " + kernel);
    System.out.println("cloud kernel without its tree: " + report.getRunFailure().getMessage());
  }

  private static WorkerMessage execute(RunAssignment run) throws Exception {
    Path home = WorkerSettings.defaultHome();
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", HOST, Map.of(), home);
    Map<String, VmDriver> drivers = Map.of("qemu", QemuDriver.forThisHost(home.resolve("probe")));
    BlockAssignment block = BlockAssignment.newBuilder().setExperimentId("e2e").setBlockId("b1").setLeaseEpoch(1).build();
    RunReport report = new GuestRunProcedure(settings, drivers).execute(block, run);
    return RunReports.toWire(block, run, report);
  }

  private static RunAssignment run(String id, Path kernel) throws Exception {
    return run(id, kernel, "9p");
  }

  private static RunAssignment run(String id, Path kernel, String transport) throws Exception {
    return RunAssignment.newBuilder()
        .setRunId(id)
        .setArm("base")
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(ArtifactCache.sha256(kernel)).setUri(kernel.toString())))
        .setBenchmark(Benchmark.newBuilder().setVolume("host").addMetrics("metadata_stat").addMetrics("create_delete")
            .setIterations(3).setTransport(transport))
        .setTimeoutS(180)
        .setHypervisor("qemu")
        .build();
  }
}
