package dev.abfleet.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Workload;
import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.ParsedRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a workload's run is judged: every failure is HARNESS-worthy and quotes the offending line. */
class WorkloadRunTest {
  private static final String START = "{\"event\":\"start\",\"harness\":\"fleetbench\"}";
  private static final String DONE = "{\"event\":\"done\",\"elapsed_ms\":3}";
  private static final String VALID = "{\"metric\":\"m\",\"value\":1,\"unit\":\"ops/s\",\"better\":\"higher\"}";

  private static Benchmark bench(String output) {
    return Benchmark.newBuilder().setWorkload(Workload.newBuilder().setRun("x").setOutput(output)).build();
  }

  private static String line(String text) {
    return "{\"event\":\"workload\",\"line\":\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
  }

  private static String end(String fields) {
    return "{\"event\":\"workload_end\"," + fields + "}";
  }

  private static WorkloadRun.Outcome read(String output, String overCap, String... protocolLines) {
    List<String> lines = new ArrayList<>(List.of(START));
    lines.addAll(List.of(protocolLines));
    lines.add(DONE);
    ParsedRun parsed = GuestProtocol.parse(lines);
    return WorkloadRun.read(bench(output), parsed, Optional.ofNullable(overCap));
  }

  @Test
  void aWorkloadThatExitedZeroWithValidLinesHasSamplesAndNoProblem() {
    WorkloadRun.Outcome o = read("jsonl", null, line(VALID), end("\"exit_status\":0"));

    assertThat(o.problem()).isEmpty();
    assertThat(o.samples()).hasSize(1);
    assertThat(o.measuredMetrics()).containsExactly("m");
  }

  @Test
  void printingNoValidLineIsAProblemQuotingTheFirstBadLine() {
    WorkloadRun.Outcome o = read("jsonl", null, line("hello"), line("world"), end("\"exit_status\":0"));

    assertThat(o.problem().orElseThrow()).isEqualTo("workload printed no valid jsonl line; first bad line: stdout line 1 'hello'"
        + " (not a JSON object; expected {\"metric\":\"x\",\"value\":1.5,\"unit\":\"ops/s\",\"better\":\"higher\"})");
  }

  @Test
  void gobenchOutputWithoutABenchmarkLineSaysItsLastLine() {
    WorkloadRun.Outcome o = read("gobench", null, line("PASS"), end("\"exit_status\":0"));

    assertThat(o.problem().orElseThrow())
        .isEqualTo("workload printed no valid gobench line; last line it printed (stdout line 1): 'PASS'");
  }

  @Test
  void printingNothingSaysSo() {
    WorkloadRun.Outcome o = read("gobench", null, end("\"exit_status\":0"));

    assertThat(o.problem().orElseThrow()).isEqualTo("workload printed no valid gobench line; it printed nothing on stdout");
  }

  @Test
  void aNonZeroExitIsAProblemEvenWithValidLines() {
    WorkloadRun.Outcome o = read("jsonl", null, line(VALID), line("segfault soon"), end("\"exit_status\":139"));

    assertThat(o.problem().orElseThrow()).startsWith("workload exited with status 139; first bad line: stdout line 2 'segfault soon'");
  }

  @Test
  void aSignalIsAProblemQuotingTheLastLine() {
    WorkloadRun.Outcome o = read("jsonl", null, line(VALID), end("\"exit_status\":-1,\"signal\":11"));

    assertThat(o.problem().orElseThrow()).startsWith("workload killed by signal 11; last line it printed (stdout line 1): '{");
  }

  @Test
  void aTimeoutIsAProblemNamingTheTimeout() {
    WorkloadRun.Outcome o = read("jsonl", null, line("working"),
        end("\"exit_status\":-1,\"signal\":9,\"timed_out\":true,\"timeout_s\":300"));

    assertThat(o.problem().orElseThrow())
        .isEqualTo("workload killed at its timeout of 300 s; last line it printed (stdout line 1): 'working'");
  }

  @Test
  void aFloodStoppedInTheGuestIsAProblem() {
    WorkloadRun.Outcome o = read("jsonl", null, line("y"), end("\"exit_status\":-1,\"signal\":9,\"flooded\":true"));

    assertThat(o.problem().orElseThrow()).startsWith("workload printed more than the guest forwards (512 KiB on stdout)")
        .contains("first 120 bytes on stdout: \"y\\n\"").endsWith("'y'");
  }

  @Test
  void aResultsChannelOverItsCapIsAProblemQuotingTheLastLine() {
    WorkloadRun.Outcome o = read("jsonl", "results.log grew to 2000000 bytes", line(VALID), line("y"));

    assertThat(o.problem().orElseThrow()).isEqualTo("the workload flooded the guest's output; first 120 bytes on stdout: \""
        + VALID.replace("\"", "\\\"") + "\\ny\\n\"; last line it printed (stdout line 2): 'y'");
  }

  @Test
  void aMissingEndEventIsAProblem() {
    WorkloadRun.Outcome o = read("jsonl", null, line(VALID));

    assertThat(o.problem().orElseThrow()).startsWith("the guest never reported the workload's end");
  }

  @Test
  void withoutTelemetryThereAreNoCounters() {
    assertThat(read("jsonl", null, line(VALID), end("\"exit_status\":0")).counters()).isEmpty();
  }

  @Test
  void aBenchmarkWithoutAWorkloadHasNoWorkloadOutcomeAndItsOwnTimeout() {
    Benchmark fleetbench = Benchmark.newBuilder().addMetrics("metadata_stat").build();

    assertThat(WorkloadRun.read(fleetbench, GuestProtocol.parse(List.of(START, DONE)), Optional.empty())).isNull();
    assertThat(WorkloadRun.vmTimeout(Duration.ofSeconds(180), fleetbench)).isEqualTo(Duration.ofSeconds(180));
    assertThat(WorkloadRun.configProblem(fleetbench)).isEmpty();
  }

  @Test
  void theVmTimeoutCoversTheDefaultWorkloadTimeoutAndNeverShrinks() {
    assertThat(WorkloadRun.vmTimeout(Duration.ofSeconds(180), bench("jsonl"))).isEqualTo(Duration.ofSeconds(660));
    Benchmark shortRun = Benchmark.newBuilder().setWorkload(Workload.newBuilder().setTimeoutS(10)).build();
    assertThat(WorkloadRun.vmTimeout(Duration.ofSeconds(180), shortRun)).isEqualTo(Duration.ofSeconds(180));
  }

  @Test
  void anUnknownOutputFormatIsAConfigurationProblem() {
    Benchmark b = Benchmark.newBuilder().setWorkload(Workload.newBuilder().setRun("x").setOutput("csv")
        .setFiles(dev.abfleet.proto.fleet.v1.Artifact.newBuilder().setSha256("ab".repeat(32)))).build();

    assertThat(WorkloadRun.configProblem(b)).contains("unknown workload output 'csv'; expected jsonl or gobench");
  }
}
