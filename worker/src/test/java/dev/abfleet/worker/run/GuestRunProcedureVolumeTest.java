package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.modules.ModulePack;
import dev.abfleet.worker.modules.ModuleTree;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VmDriver;
import dev.abfleet.worker.vm.VolumeTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** volume: host through the procedure, over a driver that writes what the test says the guest wrote. */
class GuestRunProcedureVolumeTest {
  private static final String OK = "{\"event\":\"start\",\"harness\":\"fleetbench\",\"kernel\":\"6.1.0\"}\n"
      + "{\"metric\":\"metadata_stat\",\"value\":230.0,\"unit\":\"ops/s\",\"better\":\"higher\",\"iteration\":0}\n"
      + "{\"event\":\"done\",\"elapsed_ms\":300}\n";

  @TempDir Path home;

  private List<String> transports = List.of("9p");
  private String results = OK;
  private BootRequest booted;
  private boolean volumeEmptyAtBoot;

  @Test
  void recordsTheTransportAndTheGuestsMountOptionsOnTheResult() throws Exception {
    WorkerMessage report = execute(run(artifact("vmlinuz")).mergeBoot(BootSpec.newBuilder().setVolumeOptions("cache=loose").build()).build());

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage()).isTrue();
    assertThat(report.getRunResult().getTelemetry().getVolumeTransport()).isEqualTo("9p");
    assertThat(report.getRunResult().getTelemetry().getVolumeOptions())
        .isEqualTo("trans=virtio,version=9p2000.L,msize=512000,cache=loose");
    assertThat(booted.guestParams()).contains("abfleet.volume=9p", "abfleet.volume_tag=abfleet-vol",
        "abfleet.volume_opts=trans=virtio,version=9p2000.L,msize=512000,cache=loose");
  }

  @Test
  void sharesAFreshEmptyDirectoryAndRemovesItAfterTheBoot() throws Exception {
    Path leftover = Files.createDirectories(home.resolve("volumes/r1-e2"));
    Files.writeString(leftover.resolve("from-an-earlier-attempt"), "x");

    execute(run(artifact("vmlinuz")).build());

    assertThat(booted.volume().hostDir()).isEqualTo(home.resolve("volumes/r1-e2"));
    assertThat(booted.volume().transport()).isEqualTo(VolumeTransport.NINE_P);
    assertThat(volumeEmptyAtBoot).isTrue();
    assertThat(home.resolve("volumes/r1-e2")).doesNotExist();
  }

  @Test
  void reportsAVolumeTheGuestCouldNotMountAsAConfigurationErrorWithItsTransport() throws Exception {
    results = "{\"event\":\"setup_error\",\"step\":\"mount -t 9p abfleet-vol\",\"message\":\"No such device\"}\n";

    WorkerMessage report = execute(run(artifact("vmlinuz")).build());

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).startsWith("guest setup failed: mount -t 9p abfleet-vol: No such device");
    assertThat(report.getRunFailure().getTelemetry().getVolumeTransport()).isEqualTo("9p");
  }

  @Test
  void failsAKernelWithoutTheNinePModulesBeforeBootingIt() throws Exception {
    Artifact cloud = kernelWithTree("6.1.0-50-cloud-amd64", "cloud-6.1.0-50-cloud-amd64");

    RunAssignment.Builder run = run(cloud);
    run.getBootBuilder().clearInitrd();
    WorkerMessage report = execute(run.build());

    assertThat(booted).isNull();
    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).startsWith("kernel 6.1.0-50-cloud-amd64 has no modules 9pnet_virtio, 9p");
    assertThat(report.getRunFailure().getTelemetry().getVolumeOptions()).isEqualTo("trans=virtio,version=9p2000.L,msize=512000");
  }

  @Test
  void stagesAndUnpacksTheUploadedModuleTreeAndResolvesFromIt() throws Exception {
    Artifact cloud = kernelWithTree("6.1.0-50-cloud-amd64", "cloud-6.1.0-50-cloud-amd64");
    ModuleTree tree = ModuleTree.at(home.resolve("pkg/lib/modules/6.1.0-50-cloud-amd64"));
    for (String ko : List.of("virtio_pci", "virtio_pci_legacy_dev", "virtio_pci_modern_dev", "virtio_ring", "virtio")) {
      Path f = tree.file("kernel/drivers/virtio/" + ko + ".ko");
      Files.createDirectories(f.getParent());
      Files.writeString(f, "ELF of " + ko);
    }
    byte[] archive = ModulePack.archive(tree, tree.index(home, (argv, dir, log, timeout) -> {
      throw new AssertionError("ran " + argv);
    }), List.of("virtio_pci"));
    Path packed = Files.write(Files.createDirectories(home.resolve("client")).resolve("tree.tar"), archive);
    CacheFiles.deleteTree(home.resolve("pkg/lib"));
    Path kernel = Files.writeString(home.resolve("bzImage"), "k");
    String sha = ArtifactCache.sha256(packed);

    RunAssignment.Builder run = run(Artifact.newBuilder().setSha256(ArtifactCache.sha256(kernel))
        .setUri(kernel.toString()).build());
    run.getBootBuilder().clearInitrd()
        .setModulesTree(Artifact.newBuilder().setSha256(sha).setUri(packed.toString()));
    WorkerMessage report = execute(run.build());

    Path unpacked = home.resolve("modules").resolve(sha).resolve("6.1.0-50-cloud-amd64");
    assertThat(unpacked.resolve("modules.dep")).isRegularFile();
    assertThat(report.getRunFailure().getMessage()).startsWith("kernel 6.1.0-50-cloud-amd64 has no modules"
        + " 9pnet_virtio, 9p (not in the modules.dep or modules.builtin of " + unpacked + ")");
  }

  @Test
  void leavesAHostVolumeToAnotherHostWhenThisHypervisorOffersNoTransport() throws Exception {
    transports = List.of();

    WorkerMessage report = execute(run(artifact("vmlinuz")).build());

    assertThat(booted).isNull();
    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.INFRA);
    assertThat(report.getRunFailure().getMessage()).contains("offers no volume transport");
  }

  private WorkerMessage execute(RunAssignment run) throws InterruptedException {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "h1", Map.of(), home);
    BlockAssignment block = BlockAssignment.newBuilder().setExperimentId("e1").setBlockId("b1").setLeaseEpoch(2).build();
    RunReport report = new GuestRunProcedure(settings, Map.of("fake", new FakeDriver())).execute(block, run);
    return RunReports.toWire(block, run, report);
  }

  private RunAssignment.Builder run(Artifact kernel) throws IOException {
    return RunAssignment.newBuilder()
        .setRunId("r1")
        .setArm("base")
        .setBoot(BootSpec.newBuilder().setKernel(kernel)
        .setInitrd(artifact("initrd")))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat").setVolume("host"))
        .setTimeoutS(60)
        .setHypervisor("fake");
  }

  private Artifact artifact(String name) throws IOException {
    Path file = Files.writeString(home.resolve(name), "not really " + name);
    return Artifact.newBuilder().setSha256(ArtifactCache.sha256(file)).setUri(file.toString()).build();
  }

  /** pkg/boot/vmlinuz-R with pkg/lib/modules/R holding the modules.dep excerpt {@code dep}. */
  private Artifact kernelWithTree(String release, String dep) throws IOException {
    Path root = home.resolve("pkg");
    Path kernel = Files.writeString(Files.createDirectories(root.resolve("boot")).resolve("vmlinuz-" + release), "k");
    Path tree = Files.createDirectories(root.resolve("lib/modules").resolve(release));
    try (InputStream in = getClass().getResourceAsStream("/modules/" + dep + ".modules.dep")) {
      Files.write(tree.resolve("modules.dep"), in.readAllBytes());
    }
    return Artifact.newBuilder().setSha256(ArtifactCache.sha256(kernel)).setUri(kernel.toString()).build();
  }

  private final class FakeDriver implements VmDriver {
    @Override
    public String name() {
      return "fake";
    }

    @Override
    public List<String> accelerators() {
      return List.of("tcg");
    }

    @Override
    public List<String> volumeTransports() {
      return transports;
    }

    @Override
    public BootOutcome boot(BootRequest request) {
      booted = request;
      Path resultsLog = request.workDir().resolve("results.log");
      try (var entries = Files.list(request.volume().hostDir())) {
        volumeEmptyAtBoot = entries.findAny().isEmpty();
        Files.writeString(request.volume().hostDir().resolve("fleetbench-meta"), "written by the guest");
        Files.writeString(resultsLog, results, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new BootOutcome("tcg", 0, false, Duration.ofSeconds(1), request.workDir().resolve("console.log"),
          resultsLog, "", null, null);
    }
  }
}
