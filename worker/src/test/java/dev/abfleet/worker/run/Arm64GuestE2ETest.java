package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.KernelImage;
import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.guest.GuestImage;
import dev.abfleet.worker.vm.VmDriver;
import dev.abfleet.worker.vm.qemu.QemuDriver;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An arm64 guest on this x86_64 host: Debian's arm64 cloud kernel boots in qemu-system-aarch64
 * (TCG) with the aarch64 guest image the worker builds (cross-compiled fleetbench, Debian's
 * arm64 busybox-static), and the harness's samples come back over the virtio console.
 * Downloads the kernel and busybox packages into the abfleet cache on first use.
 */
@Tag("e2e")
class Arm64GuestE2ETest {

  private static final String HOST = "e2e-arm64";

  @Test
  void bootsTheArm64CloudKernelWithTheAarch64GuestImage() throws Exception {
    Path home = WorkerSettings.defaultHome();
    Path kernel = TestKernels.arm64CloudKernel();
    assertThat(KernelImage.inspect(kernel).arch()).as("Debian's arm64 vmlinuz is an uncompressed Image")
        .isEqualTo("aarch64");
    GuestImage.Built image = GuestImage.base(home, "aarch64");
    assertThat(GuestImage.archOf(image.path())).contains("aarch64");
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", HOST, Map.of(), home, true);
    Map<String, VmDriver> drivers = Map.of("qemu", QemuDriver.forThisHost(home.resolve("probe")));

    long start = System.nanoTime();
    BlockAssignment block = BlockAssignment.newBuilder().setExperimentId("e2e").setBlockId("b1").setLeaseEpoch(1).build();
    RunAssignment run = RunAssignment.newBuilder()
        .setRunId("arm64-1")
        .setArm("base")
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(ArtifactCache.sha256(kernel)).setUri(kernel.toString())))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat").setIterations(2).setIterationMs(100))
        .setTimeoutS(240)
        .setHypervisor("qemu")
        .build();
    WorkerMessage report = RunReports.toWire(block, run, new GuestRunProcedure(settings, drivers).execute(block, run));
    long wallMs = (System.nanoTime() - start) / 1_000_000;

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage() + "\n"
        + report.getRunFailure().getConsoleTail()).isTrue();
    var telemetry = report.getRunResult().getTelemetry();
    assertThat(telemetry.getGuestArch()).isEqualTo("aarch64");
    assertThat(telemetry.getGuestImageSha256()).isEqualTo(image.sha256());
    assertThat(telemetry.getKernelRelease()).isEqualTo("6.1.0-50-cloud-arm64");
    assertThat(telemetry.getAccelerator()).isEqualTo("tcg");
    assertThat(report.getRunResult().getSamplesList()).filteredOn(s -> !s.getWarmup())
        .extracting(MetricSample::getMetric).containsExactly("metadata_stat", "metadata_stat");
    System.out.printf("arm64 cloud kernel on TCG: wall %d ms (stage %d ms, VM %d ms, guest boot %d ms)%n%s%n", wallMs,
        telemetry.getStageMs(), telemetry.getRunMs(), telemetry.getBootMs(),
        report.getRunResult().getSamplesList().stream()
            .map(s -> "  " + s.getMetric() + " " + s.getIteration() + " " + s.getValue() + " " + s.getUnit())
            .reduce((a, b) -> a + "\n" + b).orElse(""));
  }
}
