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
import dev.abfleet.worker.artifact.TestKernels;
import dev.abfleet.worker.guest.GuestImage;
import dev.abfleet.worker.guest.GuestImageException;
import dev.abfleet.worker.guest.InitramfsBuilder;
import dev.abfleet.worker.guest.TestElf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which guest image a boot gets and what it records about it, over a fake VM and a fake image builder. */
class GuestRunProcedureImageTest {
  private static final int X86_64 = 62;
  private static final int AARCH64 = 183;
  private static final String RESULTS = "{\"event\":\"start\",\"harness\":\"fleetbench\",\"kernel\":\"6.1.0\"}\n"
      + "{\"metric\":\"metadata_stat\",\"value\":50300.0,\"unit\":\"ops/s\",\"better\":\"higher\",\"iteration\":0}\n"
      + "{\"event\":\"done\",\"elapsed_ms\":300}\n";

  @TempDir Path home;

  private boolean buildsImages = true;
  private final List<String> builtFor = new ArrayList<>();
  private final ScriptedGuest guest = new ScriptedGuest(() -> RESULTS);

  @Test
  void bootsTheStagedGuestImageAndRecordsItsHashAndArch() throws Exception {
    Artifact image = image("x86.cpio.gz", X86_64);

    WorkerMessage report = execute(run(TestKernels.bzImage(home.resolve("bzImage"))).mergeBoot(BootSpec.newBuilder().setGuestImage(image).build()));

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage()).isTrue();
    assertThat(report.getRunResult().getTelemetry().getGuestArch()).isEqualTo("x86_64");
    assertThat(report.getRunResult().getTelemetry().getGuestImageSha256()).isEqualTo(image.getSha256());
    assertThat(Files.readAllBytes(guest.booted.initrd())).isEqualTo(Files.readAllBytes(Path.of(image.getUri())));
    assertThat(builtFor).as("a staged image is never built here").isEmpty();
  }

  @Test
  void refusesAStagedGuestImageOfAnotherArchitectureAsAConfigurationError() throws Exception {
    Artifact image = image("arm64.cpio.gz", AARCH64);

    WorkerMessage report = execute(run(TestKernels.bzImage(home.resolve("bzImage"))).mergeBoot(BootSpec.newBuilder().setGuestImage(image).build()));

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage())
        .startsWith("guest image " + image.getSha256().substring(0, 12) + " is for aarch64 but the kernel is x86_64;")
        .doesNotContain("\n");
    assertThat(report.getRunFailure().getTelemetry().getGuestArch()).isEqualTo("x86_64");
    assertThat(guest.booted).isNull();
  }

  @Test
  void refusesAStagedFileThatIsNoGuestImage() throws Exception {
    Path junk = Files.writeString(home.resolve("junk.cpio.gz"), "not an image");
    Artifact image = Artifact.newBuilder().setSha256(ArtifactCache.sha256(junk)).setUri(junk.toString()).build();

    WorkerMessage report = execute(run(TestKernels.bzImage(home.resolve("bzImage"))).mergeBoot(BootSpec.newBuilder().setGuestImage(image).build()));

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).contains("is not a guest image");
  }

  @Test
  void buildsTheGuestImageForTheKernelsArchitectureWhenTheRunCarriesNone() throws Exception {
    WorkerMessage report = execute(run(TestKernels.arm64Image(home.resolve("Image"))));

    assertThat(builtFor).containsExactly("aarch64");
    assertThat(guest.booted.arch()).isEqualTo("aarch64");
    assertThat(report.getRunResult().getTelemetry().getGuestArch()).isEqualTo("aarch64");
    assertThat(report.getRunResult().getTelemetry().getGuestImageSha256()).isEqualTo("b".repeat(64));
  }

  @Test
  void refusesARunWithoutAGuestImageOnAWorkerThatBuildsNone() throws Exception {
    buildsImages = false;

    WorkerMessage report = execute(run(TestKernels.bzImage(home.resolve("bzImage"))));

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).isEqualTo("this worker does not build guest images"
        + " (--no-image-build) and run r1 carries none; submit with abfleet ab/nightly/bisect, which attach one");
    assertThat(builtFor).isEmpty();
  }

  @Test
  void refusesARunWhoseArchitectureIsNotItsKernels() throws Exception {
    Path kernel = TestKernels.bzImage(home.resolve("bzImage"));

    WorkerMessage report = execute(run(kernel).mergeBoot(BootSpec.newBuilder().setArch("aarch64").build()));

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).isEqualTo("run r1 is for aarch64 but its kernel " + kernel
        + " is an x86_64 image; give the arm a kernel built for aarch64");
    assertThat(builtFor).isEmpty();
  }

  @Test
  void refusesAnUnknownArchitecture() throws Exception {
    WorkerMessage report = execute(run(TestKernels.bzImage(home.resolve("bzImage"))).mergeBoot(BootSpec.newBuilder().setArch("riscv64").build()));

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).contains("unknown guest arch 'riscv64'");
  }

  @Test
  void recordsNoGuestImageForAnArmWithItsOwnInitrd() throws Exception {
    Path initrd = Files.writeString(home.resolve("initrd"), "the arm's own");

    WorkerMessage report = execute(run(TestKernels.bzImage(home.resolve("bzImage")))
        .mergeBoot(BootSpec.newBuilder().setInitrd(Artifact.newBuilder().setSha256(ArtifactCache.sha256(initrd)).setUri(initrd.toString())).build()));

    assertThat(report.getRunResult().getTelemetry().getGuestImageSha256()).isEmpty();
    assertThat(report.getRunResult().getTelemetry().getGuestArch()).isEqualTo("x86_64");
    assertThat(builtFor).isEmpty();
  }

  private WorkerMessage execute(RunAssignment.Builder run) throws InterruptedException {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "h1", Map.of(), home, buildsImages);
    RunAssignment assignment = run.build();
    BlockAssignment block = BlockAssignment.newBuilder().setExperimentId("e1").setBlockId("b1").setLeaseEpoch(1).build();
    RunReport report = new GuestRunProcedure(settings, Map.of("fake", guest), this::build).execute(block, assignment);
    return RunReports.toWire(block, assignment, report);
  }

  private GuestImage.Built build(String arch) throws GuestImageException {
    builtFor.add(arch);
    try {
      return new GuestImage.Built(Files.writeString(home.resolve("built-" + arch), "image"), "b".repeat(64), arch);
    } catch (IOException e) {
      throw new GuestImageException(e.toString(), e);
    }
  }

  private RunAssignment.Builder run(Path kernel) throws IOException {
    return RunAssignment.newBuilder()
        .setRunId("r1")
        .setArm("base")
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(ArtifactCache.sha256(kernel)).setUri(kernel.toString())))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat"))
        .setTimeoutS(60)
        .setHypervisor("fake");
  }

  /** A guest image whose busybox and harness are of {@code machine}. */
  private Artifact image(String name, int machine) throws Exception {
    Path busybox = Files.write(home.resolve("busybox-" + machine), TestElf.of(machine, false));
    byte[] fb = TestElf.of(machine, false);
    fb[fb.length - 1] = 1;
    Path harness = Files.write(home.resolve("fleetbench-" + machine), fb);
    Path built = new InitramfsBuilder(home.resolve("elsewhere")).build("#!/bin/sh\n".getBytes(), busybox, harness);
    Path file = Files.copy(built, home.resolve(name));
    return Artifact.newBuilder().setSha256(ArtifactCache.sha256(file)).setUri(file.toString()).build();
  }
}
