package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.ProtocolConstants;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.VmShape;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VmDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One boot through the procedure, over a driver that writes what the test says the guest wrote. */
class GuestRunProcedureTest {
  private static final String START = "{\"event\":\"start\",\"harness\":\"fleetbench\",\"kernel\":\"6.1.0\",\"uptime_ms\":900}\n";
  private static final String SAMPLE =
      "{\"metric\":\"metadata_stat\",\"value\":50300.0,\"unit\":\"ops/s\",\"better\":\"higher\",\"iteration\":%d}\n";
  private static final String DONE = "{\"event\":\"done\",\"elapsed_ms\":300}\n";

  @TempDir Path home;

  /** What the fake guest writes and how the fake VM ends. */
  private String results = START + SAMPLE.formatted(0) + DONE;
  private String overCap;
  private byte[] console;
  private String launchError;
  private BootRequest booted;

  @Test
  void recordsTheHostCpusAPinnedBootsVcpusRanOn() throws Exception {
    WorkerMessage report = execute(run().toBuilder()
        .mergeBoot(BootSpec.newBuilder().setShape(VmShape.newBuilder().setVcpus(1).setPinVcpus(true)).build()).build());

    assertThat(booted.pinVcpus()).isTrue();
    assertThat(report.getRunResult().getTelemetry().getVcpuHostCpusList()).containsExactly(1);
  }

  @Test
  void aBootWhoseVcpusCouldNotBePinnedIsTheHostsFailureNotASample() throws Exception {
    launchError = "cannot pin vCPUs: this host has 1 usable CPUs (cpuset 0) and cannot pin 2 vCPUs to one each";

    WorkerMessage report = execute(run().toBuilder()
        .mergeBoot(BootSpec.newBuilder().setShape(VmShape.newBuilder().setVcpus(2).setPinVcpus(true)).build()).build());

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.INFRA);
    assertThat(report.getRunFailure().getMessage()).isEqualTo("VM did not start: " + launchError);
  }

  @Test
  void classifiesABootWhoseResultsPassTheirCapAsHarness() throws Exception {
    StringBuilder flood = new StringBuilder(START);
    for (int i = 0; flood.length() <= (1 << 20); i++) {
      flood.append(SAMPLE.formatted(i));
    }
    results = flood.append(DONE).toString();

    WorkerMessage report = execute(run());

    assertThat(report.hasRunFailure()).as("an over-cap boot gives no samples").isTrue();
    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.HARNESS);
    assertThat(report.getRunFailure().getMessage()).contains("results.log").contains("cap of 1048576 bytes");
  }

  @Test
  void classifiesABootKilledForFloodingItsConsoleAsHarness() throws Exception {
    overCap = "console.log grew to 9000000 bytes, past its cap of 8388608 bytes";

    WorkerMessage report = execute(run());

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.HARNESS);
    assertThat(report.getRunFailure().getMessage()).contains(overCap);
  }

  @Test
  void quotesTheFirstBytesOfAFloodedConsoleEscaped() throws Exception {
    overCap = "console.log grew to 9000000 bytes, past its cap of 8388608 bytes";
    byte[] garbage = new byte[200];
    java.util.Arrays.fill(garbage, (byte) 'y');
    byte[] head = "\u0000\u00ff\"yes\"\n".getBytes(StandardCharsets.ISO_8859_1);
    System.arraycopy(head, 0, garbage, 0, head.length);
    console = garbage;

    WorkerMessage report = execute(run());

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.HARNESS);
    assertThat(report.getRunFailure().getMessage()).contains(overCap + "; first 120 bytes: \"\\x00\\xff\\\"yes\\\"\\n"
        + "y".repeat(120 - head.length) + "\"");
  }

  @Test
  void quotesTheFirstBytesOfResultsPastTheirCap() throws Exception {
    results = START + "z".repeat(2 << 20);

    WorkerMessage report = execute(run());

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.HARNESS);
    assertThat(report.getRunFailure().getMessage()).contains("first 120 bytes: \"{\\\"event\\\":\\\"start\\\"");
  }

  @Test
  void reportsTheFirstTwentyParseErrorsOfAGarbageChannelAndCountsTheRest() throws Exception {
    results = START + "garbage\n".repeat(100_000) + SAMPLE.formatted(0) + DONE;

    WorkerMessage report = execute(run());

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage()).isTrue();
    assertThat(report.getRunResult().getParseErrorsList()).hasSize(20).first().asString().startsWith("line 2: ");
    assertThat(report.getRunResult().getParseErrorsOmitted()).isEqualTo(100_000 - 20);
    assertThat(report.getSerializedSize()).isLessThan(16 * 1024);
  }

  @Test
  void bootsWithTheProtocolDefaultTimeoutWhenTheAssignmentGivesNone() throws Exception {
    execute(run().toBuilder().setTimeoutS(0).build());

    assertThat(booted.timeout()).isEqualTo(Duration.ofSeconds(ProtocolConstants.DEFAULT_BOOT_TIMEOUT_S_VALUE));
  }

  @Test
  void reportsTheConsoleLinesOfAWarningBootBesideItsSamples() throws Exception {
    console = ("[    0.1] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to RETBleed attacks\n"
        + "[    1.9] WARNING: CPU: 0 PID: 1 at init/main.c:1530 abfleet_warn_init+0x11/0x20\n"
        + "[    1.9] Call Trace:\n").getBytes(StandardCharsets.UTF_8);

    WorkerMessage report = execute(run());

    var telemetry = report.getRunResult().getTelemetry();
    assertThat(report.getRunResult().getSamplesCount()).isEqualTo(1);
    assertThat(telemetry.getConsoleFindings()).isEqualTo(2);
    assertThat(telemetry.getConsoleLinesList()).containsExactly(
        "[    1.9] WARNING: CPU: 0 PID: 1 at init/main.c:1530 abfleet_warn_init+0x11/0x20", "[    1.9] Call Trace:");
    assertThat(booted.guestParams()).startsWith("loglevel=5");
  }

  @Test
  void scansTheConsoleForTheRunsOwnPatterns() throws Exception {
    console = "[    1.9] WARNING: CPU: 0 PID: 1\n[   30.0] rcu: INFO: rcu_preempt detected stalls\n"
        .getBytes(StandardCharsets.UTF_8);

    WorkerMessage report = execute(run().toBuilder().addConsolePatterns("detected stalls").build());

    assertThat(report.getRunResult().getTelemetry().getConsoleLinesList())
        .containsExactly("[   30.0] rcu: INFO: rcu_preempt detected stalls");
  }

  @Test
  void rejectsAnInvalidConsolePatternBeforeBooting() throws Exception {
    WorkerMessage report = execute(run().toBuilder().addConsolePatterns("Oops[").build());

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).contains("'Oops['");
    assertThat(booted).isNull();
  }

  private WorkerMessage execute(RunAssignment run) throws InterruptedException {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "h1", Map.of(), home);
    BlockAssignment block = BlockAssignment.newBuilder().setExperimentId("e1").setBlockId("b1").setLeaseEpoch(2).build();
    RunReport report = new GuestRunProcedure(settings, Map.of("fake", new GuestDriver())).execute(block, run);
    return RunReports.toWire(block, run, report);
  }

  private RunAssignment run() throws IOException {
    return RunAssignment.newBuilder()
        .setRunId("r1")
        .setArm("base")
        .setBoot(BootSpec.newBuilder().setKernel(artifact("vmlinuz"))
        .setInitrd(artifact("initrd")))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat"))
        .setTimeoutS(60)
        .setHypervisor("fake")
        .build();
  }

  private Artifact artifact(String name) throws IOException {
    Path file = Files.writeString(home.resolve(name), "not really " + name);
    return Artifact.newBuilder().setSha256(ArtifactCache.sha256(file)).setUri(file.toString()).build();
  }

  /**
   * Writes {@link #results} as the guest's results file and ends the way {@link #overCap} and
   * {@link #launchError} say; a pinned boot ran its vCPU on host CPU 1.
   */
  private final class GuestDriver implements VmDriver {
    @Override
    public String name() {
      return "fake";
    }

    @Override
    public List<String> accelerators() {
      return List.of("tcg");
    }

    @Override
    public BootOutcome boot(BootRequest request) {
      booted = request;
      Path console = request.workDir().resolve("console.log");
      Path resultsLog = request.workDir().resolve("results.log");
      try {
        Files.writeString(resultsLog, results, StandardCharsets.UTF_8);
        if (GuestRunProcedureTest.this.console != null) {
          Files.write(console, GuestRunProcedureTest.this.console);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (launchError != null) {
        return BootOutcome.notStarted(console, resultsLog, launchError);
      }
      return new BootOutcome("tcg", overCap == null ? 0 : -1, false, Duration.ofSeconds(1), console, resultsLog,
          "", null, overCap, request.pinVcpus() ? List.of(1) : List.of());
    }
  }
}
