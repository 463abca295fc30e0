package dev.abfleet.worker.run;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.MetricTelemetry;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.proto.fleet.v1.Workload;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.guest.WorkloadPack;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A workload benchmark through the procedure, over a driver that writes what the test says the guest wrote. */
class GuestRunProcedureWorkloadTest {
  private static final String START = "{\"event\":\"start\",\"harness\":\"fleetbench\",\"kernel\":\"6.1.0\",\"uptime_ms\":900}\n";
  private static final String TELEMETRY = "{\"event\":\"telemetry\",\"metric\":\"workload\",\"work\":1.0,"
      + "\"work_unit\":\"run\",\"interrupts\":{\"RES\":12},\"context_switches\":40,\"interrupts_total\":90}\n";
  private static final String DONE = "{\"event\":\"done\",\"elapsed_ms\":300}\n";

  @TempDir Path home;

  private String results;
  private final ScriptedGuest guest = new ScriptedGuest(() -> results);

  private static String line(String text) {
    return "{\"event\":\"workload\",\"line\":\"" + text.replace("\"", "\\\"") + "\"}\n";
  }

  private static String end(int exitStatus) {
    return "{\"event\":\"workload_end\",\"exit_status\":" + exitStatus + ",\"signal\":0,\"timed_out\":false,"
        + "\"flooded\":false,\"timeout_s\":300,\"lines\":2,\"elapsed_ms\":50}\n";
  }

  @Test
  void reportsTheWorkloadsMetricsWithTheRunsTelemetryUnderEachOfThem() throws Exception {
    results = START + line("goos: linux") + line("BenchmarkStat-2  1000  2400 ns/op  410.5 MB/s") + end(0)
        + TELEMETRY + DONE;

    WorkerMessage report = execute(workload("gobench", 300));

    assertThat(report.hasRunResult()).as(report.getRunFailure().getMessage()).isTrue();
    assertThat(report.getRunResult().getSamplesList()).extracting(MetricSample::getMetric, MetricSample::getUnit,
        MetricSample::getBetter, MetricSample::getIteration).containsExactly(
        org.assertj.core.groups.Tuple.tuple("Stat-2_ns/op", "ns/op", "lower", 0),
        org.assertj.core.groups.Tuple.tuple("Stat-2_MB/s", "MB/s", "higher", 0));
    assertThat(report.getRunResult().getGuestCountersList()).extracting(MetricTelemetry::getMetric)
        .containsExactly("Stat-2_ns/op", "Stat-2_MB/s");
    MetricTelemetry t = report.getRunResult().getGuestCounters(0);
    assertThat(t.getWork()).isEqualTo(1.0);
    assertThat(t.getWorkUnit()).isEqualTo("run");
    assertThat(t.getInterruptsMap()).containsEntry("RES", 12L);
    assertThat(t.getContextSwitches()).isEqualTo(40);
  }

  @Test
  void bootsTheBaseImageWithTheWorkloadsFilesAndSettingsAppendedAndNoMetricsOnTheCmdline() throws Exception {
    results = START + line("{\"metric\":\"m\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"higher\"}") + end(0)
        + DONE;
    RunAssignment run = workload("jsonl", 300);

    execute(run.toBuilder().setBenchmark(run.getBenchmark().toBuilder().addMetrics("m")).build());

    byte[] image = Files.readAllBytes(guest.booted.initrd());
    byte[] base = Files.readAllBytes(home.resolve("initrd"));
    byte[] files = Files.readAllBytes(Path.of(run.getBenchmark().getWorkload().getFiles().getUri()));
    assertThat(image.length).isGreaterThan(base.length + files.length);
    assertThat(java.util.Arrays.copyOfRange(image, 0, base.length)).isEqualTo(base);
    assertThat(java.util.Arrays.copyOfRange(image, base.length, base.length + files.length)).isEqualTo(files);
    assertThat(guest.booted.guestParams()).noneMatch(p -> p.startsWith("abfleet.metrics="));
  }

  @Test
  void theVmOutlivesTheWorkloadsTimeout() throws Exception {
    results = START + end(0) + DONE;

    execute(workload("jsonl", 900));

    assertThat(guest.booted.timeout()).isEqualTo(Duration.ofSeconds(960));
  }

  @Test
  void aWorkloadThatPrintsAMalformedLineAndExitsNonZeroIsAHarnessFailureQuotingTheLine() throws Exception {
    results = START + line("BenchmarkStat-2  1000  fast ns/op") + end(2) + TELEMETRY + DONE;

    WorkerMessage report = execute(workload("gobench", 300));

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.HARNESS);
    assertThat(report.getRunFailure().getMessage()).isEqualTo("workload exited with status 2; first bad line:"
        + " stdout line 1 'BenchmarkStat-2  1000  fast ns/op' (value 'fast' is not a number; expected 'BenchmarkName N value unit [value unit ...]')");
  }

  @Test
  void aMetricTheBenchmarkNamesButTheWorkloadDidNotReportIsMissing() throws Exception {
    results = START + line("{\"metric\":\"m\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"higher\"}") + end(0)
        + DONE;
    RunAssignment run = workload("jsonl", 300);

    WorkerMessage report = execute(run.toBuilder()
        .setBenchmark(run.getBenchmark().toBuilder().addMetrics("m").addMetrics("other")).build());

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.HARNESS);
    assertThat(report.getRunFailure().getMessage()).isEqualTo("harness reported no value for other");
  }

  @Test
  void workloadFilesThatWereNeverPackedAreAConfigurationError() throws Exception {
    RunAssignment run = workload("jsonl", 300);
    Workload unpacked = run.getBenchmark().getWorkload().toBuilder()
        .setFiles(Artifact.newBuilder().setUri("/srv/bench")).build();

    WorkerMessage report = execute(run.toBuilder()
        .setBenchmark(run.getBenchmark().toBuilder().setWorkload(unpacked)).build());

    assertThat(report.getRunFailure().getKind()).isEqualTo(FailureKind.CONFIG);
    assertThat(report.getRunFailure().getMessage()).contains("/srv/bench were not packed");
    assertThat(guest.booted).isNull();
  }

  private WorkerMessage execute(RunAssignment run) throws InterruptedException {
    WorkerSettings settings = new WorkerSettings("127.0.0.1:1", "h1", Map.of(), home);
    BlockAssignment block = BlockAssignment.newBuilder().setExperimentId("e1").setBlockId("b1").setLeaseEpoch(2).build();
    RunReport report = new GuestRunProcedure(settings, Map.of("fake", guest)).execute(block, run);
    return RunReports.toWire(block, run, report);
  }

  private RunAssignment workload(String output, int timeoutS) throws Exception {
    Path dir = Files.createDirectories(home.resolve("bench-files"));
    Files.writeString(dir.resolve("run.sh"), "echo hi\n");
    WorkloadPack.Packed packed = WorkloadPack.pack(dir, home.resolve("client-cache"));
    return RunAssignment.newBuilder()
        .setRunId("r1")
        .setArm("base")
        .setBoot(BootSpec.newBuilder().setKernel(artifact("vmlinuz"))
        .setInitrd(artifact("initrd")))
        .setBenchmark(Benchmark.newBuilder().setWorkload(Workload.newBuilder()
            .setFiles(Artifact.newBuilder().setSha256(packed.sha256()).setUri(packed.path().toString())
                .setSizeBytes(packed.bytes()))
            .setRun("sh /workload/run.sh").setOutput(output).setTimeoutS(timeoutS)))
        .setTimeoutS(60)
        .setHypervisor("fake")
        .build();
  }

  private Artifact artifact(String name) throws IOException {
    // An initrd starts like the gzip archive the workload's layers are appended to.
    String prefix = name.equals("initrd") ? "\u001f\u008b" : "";
    Path file = Files.write(home.resolve(name), (prefix + "not really " + name).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    return Artifact.newBuilder().setSha256(ArtifactCache.sha256(file)).setUri(file.toString()).build();
  }
}
