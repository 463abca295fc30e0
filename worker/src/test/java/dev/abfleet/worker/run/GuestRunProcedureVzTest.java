package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.VmShape;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.vm.vz.FakeVfkit;
import dev.abfleet.worker.vm.vz.VzDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run on the vz hypervisor through the procedure, the real VZ driver and a fake vfkit that
 * plays back a recorded arm64 guest ({@link FakeVfkit}). The run brings its own initramfs: the
 * worker does not build arm64 images yet, and the fake never looks inside it.
 */
class GuestRunProcedureVzTest {

  private static final List<String> ALL_METRICS =
      List.of("metadata_stat", "negative_lookup", "create_delete", "seq_read", "find_recursive", "rm_rf");

  @TempDir Path home;

  @Test
  void reportsTheRecordedGuestsSamplesFromTheResultsShare() throws Exception {
    RunAssignment run = run(benchmark()).build();
    FakeVfkit vfkit = fake(FakeVfkit.Guest.RECORDED_RUN, run, List.of());

    WorkerMessage report = execute(vfkit, run);

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage()).isTrue();
    var telemetry = report.getRunResult().getTelemetry();
    assertThat(telemetry.getHypervisor()).isEqualTo("vz");
    assertThat(telemetry.getAccelerator()).isEqualTo("vz");
    assertThat(telemetry.getKernelRelease()).isEqualTo("6.1.0-50-cloud-arm64");
    assertThat(telemetry.getBootMs()).isEqualTo(11100);
    assertThat(report.getRunResult().getSamplesList()).filteredOn(s -> !s.getWarmup()).hasSize(12)
        .extracting(MetricSample::getMetric).containsAll(ALL_METRICS);
    assertThat(report.getRunResult().getGuestCountersList()).hasSize(6);
  }

  @Test
  void runsAHostVolumeOverVirtiofsBesideTheResultsShare() throws Exception {
    RunAssignment run = run(benchmark().setVolume("host")).build();
    FakeVfkit vfkit = fake(FakeVfkit.Guest.RECORDED_RUN_WITH_VOLUME, run,
        List.of("abfleet.volume=virtiofs", "abfleet.volume_tag=abfleet-vol", "abfleet.volume_opts=rw"));

    WorkerMessage report = execute(vfkit, run);

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage()).isTrue();
    assertThat(report.getRunResult().getTelemetry().getVolumeTransport()).isEqualTo("virtiofs");
    assertThat(vfkit.argv()).contains("virtio-fs,sharedDir=" + home.resolve("volumes/r1-e2") + ",mountTag=abfleet-vol");
    assertThat(home.resolve("volumes/r1-e2")).as("removed after the boot").doesNotExist();
  }

  @Test
  void failsAKernelWithoutVirtiofsAsAConfigurationErrorNamingIt() throws Exception {
    RunAssignment run = run(benchmark()).build();
    FakeVfkit vfkit = fake(FakeVfkit.Guest.NO_VIRTIOFS, run, List.of());

    WorkerMessage report = execute(vfkit, run);

    assertThat(report.hasRunFailure()).isTrue();
    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).isEqualTo("guest setup failed: mount results share abfleet:"
        + " the kernel has no virtiofs file system (CONFIG_VIRTIO_FS not built in, no module loaded)");
    assertThat(report.getRunFailure().getConsoleTail()).contains("abfleet: setup failed:");
  }

  private WorkerMessage execute(FakeVfkit vfkit, RunAssignment run) throws InterruptedException {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "h1", Map.of(), home);
    VzDriver vz = new VzDriver("Mac OS X", "aarch64", vfkit.which(), new ProcessRunner(Duration.ofMillis(500)));
    BlockAssignment block = BlockAssignment.newBuilder().setExperimentId("e1").setBlockId("b1").setLeaseEpoch(2).build();
    RunReport report = new GuestRunProcedure(settings, Map.of("vz", vz)).execute(block, run);
    return RunReports.toWire(block, run, report);
  }

  /** The fake, expecting the run's shape and the files as the procedure stages them. */
  private FakeVfkit fake(FakeVfkit.Guest guest, RunAssignment run, List<String> volumeParams) throws IOException {
    ArtifactCache cache = new ArtifactCache(home.resolve("artifacts"));
    Path kernel = cache.stage(run.getBoot().getKernel().getSha256(), run.getBoot().getKernel().getUri());
    Path initrd = cache.stage(run.getBoot().getInitrd().getSha256(), run.getBoot().getInitrd().getUri());
    List<String> params = new ArrayList<>(List.of("abfleet.share=abfleet",
        "abfleet.out=/mnt/abfleet/results.jsonl", "abfleet.metrics=" + String.join(",", ALL_METRICS),
        "abfleet.iterations=2", "abfleet.iteration_ms=200", "abfleet.warmup=1", "abfleet.files=500"));
    params.addAll(volumeParams);
    return FakeVfkit.install(home.resolve("bin"), guest, 2, 1024, kernel, initrd, params);
  }

  private static Benchmark.Builder benchmark() {
    return Benchmark.newBuilder().addAllMetrics(ALL_METRICS).setIterations(2).setIterationMs(200)
        .setWarmupIterations(1).setFiles(500);
  }

  private RunAssignment.Builder run(Benchmark.Builder benchmark) throws IOException {
    return RunAssignment.newBuilder()
        .setRunId("r1")
        .setArm("base")
        .mergeBoot(BootSpec.newBuilder().setKernel(artifact(TestKernels.arm64Image(home.resolve("Image"))))
        .setInitrd(artifact(Files.write(home.resolve("initrd.gz"), new byte[] {0x1f, (byte) 0x8b, 8}))).build())
        .setBenchmark(benchmark)
        .mergeBoot(BootSpec.newBuilder().setShape(VmShape.newBuilder().setVcpus(2).setMemoryMib(1024)).build())
        .setTimeoutS(60)
        .setHypervisor("vz");
  }

  private static Artifact artifact(Path file) throws IOException {
    return Artifact.newBuilder().setSha256(ArtifactCache.sha256(file)).setUri(file.toString()).build();
  }
}
