package dev.abfleet.worker.sim;

import dev.abfleet.proto.fleet.v1.BootSpec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BlockAssignment;
import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.RunAssignment;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.guest.GuestSample;
import dev.abfleet.worker.run.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimRunProcedureTest {
  @TempDir Path home;

  @Test
  void reportsLabelledSamplesWithoutBuildingTheHarnessInitramfs() throws Exception {
    RunReport report = procedure(SimModel.defaults().withTimeScale(0)).execute(block(), run(""));

    assertThat(report).as(report.toString()).isInstanceOf(RunReport.Measured.class);
    var result = (RunReport.Measured) report;
    assertThat(result.telemetry().getHypervisor()).isEqualTo("sim");
    assertThat(result.telemetry().getAccelerator()).isEqualTo("sim");
    assertThat(result.telemetry().getKernelRelease()).startsWith("sim-");
    assertThat(result.samples()).extracting(GuestSample::metric).containsOnly(
        "metadata_stat", "negative_lookup", "create_delete", "seq_read", "find_recursive", "rm_rf")
        .hasSize(12);
    try (Stream<Path> top = Files.list(home)) {
      assertThat(top.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("artifacts", "runs", "sim");
    }
  }

  @Test
  void aPanickingArmIsABootFailure() throws Exception {
    RunReport report = procedure(SimModel.defaults().withTimeScale(0)).execute(block(), run("sim.fail_rate=1"));

    assertThat(report).as(report.toString()).isInstanceOf(RunReport.Failed.class);
    var failure = (RunReport.Failed) report;
    assertThat(failure.kind()).isEqualTo(FailureKind.BOOT);
    assertThat(failure.consoleTail()).contains("SIMULATION: injected boot failure");
  }

  private SimRunProcedure procedure(SimModel model) throws IOException {
    return SimRunProcedure.create(new WorkerSettings("127.0.0.1:1", "sim-0001", Map.of(), home),
        new SimDriver(model, "sim-0001"));
  }

  private static BlockAssignment block() {
    return BlockAssignment.newBuilder().setExperimentId("e1").setBlockId("e1-p0-a0").setLeaseEpoch(3).build();
  }

  private RunAssignment run(String cmdline) throws IOException {
    return RunAssignment.newBuilder()
        .setRunId("e1-p0-a0-base")
        .setArm("base")
        .setBoot(BootSpec.newBuilder().setKernel(SimArtifacts.kernel(home.resolve("sim"), "base"))
        .setCmdlineExtra(cmdline))
        .setBenchmark(Benchmark.newBuilder().setIterations(2).setIterationMs(50))
        .setTimeoutS(60)
        .setHypervisor("sim")
        .build();
  }
}
