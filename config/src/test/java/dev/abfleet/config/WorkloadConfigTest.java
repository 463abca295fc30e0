package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code workload:} in fleet.yaml benchmarks and spec files. */
class WorkloadConfigTest {
  @TempDir Path dir;

  @BeforeEach
  void workloadDirectory() throws Exception {
    Files.createDirectories(dir.resolve("examples/gobench-workload"));
  }

  private FleetConfig fleet(String yaml) {
    return FleetConfigLoader.parse("fleet.yaml", yaml, dir);
  }

  private static final String WORKLOAD = """
      benchmarks:
        my-bench:
          workload: {files: examples/gobench-workload, run: "sh /workload/run.sh 'a b'", output: gobench, timeout_s: 300}
          volume: host
          gating: [Stat-2_ns/op]
      """;

  @Test
  void aFleetYamlBenchmarkMayRunAWorkloadFromADirectoryBesideTheFile() {
    FleetConfig.Benchmark b = fleet(WORKLOAD).benchmark("my-bench");

    assertThat(b.workload()).isEqualTo(new FleetConfig.Workload(dir.resolve("examples/gobench-workload"),
        "sh /workload/run.sh 'a b'", "gobench", 300));
    assertThat(b.metrics()).isEmpty();
    assertThat(b.gating()).containsExactly("Stat-2_ns/op");
    assertThat(b.volume()).isEqualTo("host");
  }

  @Test
  void itsProtoCarriesTheDirectoryUnpackedWithTheRunOutputAndTimeout() {
    var p = fleet(WORKLOAD).benchmark("my-bench").toProto(List.of(), 0).build();

    assertThat(p.getWorkload().getFiles().getUri()).isEqualTo(dir.resolve("examples/gobench-workload").toString());
    assertThat(p.getWorkload().getFiles().getSha256()).isEmpty();
    assertThat(p.getWorkload().getRun()).isEqualTo("sh /workload/run.sh 'a b'");
    assertThat(p.getWorkload().getOutput()).isEqualTo("gobench");
    assertThat(p.getWorkload().getTimeoutS()).isEqualTo(300);
    assertThat(p.getVolume()).isEqualTo("host");
    assertThat(p.getMetricsList()).isEmpty();
  }

  @Test
  void outputAndTimeoutHaveDefaults() {
    FleetConfig.Workload w = fleet("benchmarks:\n  b:\n    workload: {files: examples/gobench-workload, run: ./go}\n")
        .benchmark("b").workload();

    assertThat(w.output()).isEqualTo("jsonl");
    assertThat(w.timeoutS()).isEqualTo(600);
  }

  @Test
  void filesThatAreNotADirectoryNameTheLineAndTheResolvedPath() {
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n    workload:\n      files: nowhere\n      run: x\n"))
        .isInstanceOf(Problem.class)
        .hasMessageStartingWith("fleet.yaml:4: benchmarks.b.workload.files 'nowhere' is not a directory ("
            + dir.resolve("nowhere") + ")")
        .hasMessageContaining("relative to this file");
  }

  @Test
  void aWorkloadNeedsFilesAndARunCommand() {
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n    workload: {files: examples/gobench-workload}\n"))
        .hasMessageStartingWith("fleet.yaml:3: benchmarks.b.workload has no run;");
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n    workload: {files: examples/gobench-workload, run: ' '}\n"))
        .hasMessageStartingWith("fleet.yaml:3: benchmarks.b.workload.run is empty;");
  }

  @Test
  void outputAndTimeoutAreChecked() {
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n    workload: {files: examples/gobench-workload, run: x,"
        + " output: csv}\n")).hasMessageContaining("benchmarks.b.workload.output is 'csv'; expected one of jsonl, gobench");
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n    workload: {files: examples/gobench-workload, run: x,"
        + " timeout_s: 0}\n")).hasMessageContaining("timeout_s is 0; expected a whole number from 1 to 86400");
  }

  @Test
  void aWorkloadExcludesTheHarnessItsMetricsAndItsSettings() {
    String w = "    workload: {files: examples/gobench-workload, run: x}\n";
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n" + w + "    harness: fleetbench\n"))
        .hasMessage("fleet.yaml:4: benchmarks.b has both workload and harness; a workload replaces the harness:"
            + " drop harness");
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n" + w + "    metrics: [metadata_stat]\n"))
        .hasMessageContaining("has both workload and metrics").hasMessageContaining("drop metrics");
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n" + w + "    iterations: 3\n"))
        .hasMessageContaining("benchmarks.b.iterations is a fleetbench setting").hasMessageContaining("drop iterations");
  }

  @Test
  void gatingNamesFollowTheMetricNameRule() {
    assertThatThrownBy(() -> fleet("benchmarks:\n  b:\n    workload: {files: examples/gobench-workload, run: x}\n"
        + "    gating: [\"a b\"]\n"))
        .hasMessageStartingWith("fleet.yaml:4: benchmarks.b.gating[0]: metric name 'a b' is not valid");
  }

  @Test
  void aSpecFileWorkloadRunsOnItsBenchmarksVolumeAndMetricsNameWorkloadMetrics() {
    FleetConfig base = FleetConfigLoader.embeddedDefault();
    SpecFile s = SpecFileLoader.parse("spec.yaml", """
        benchmark: host-volume
        metrics: [Stat-2_ns/op]
        workload: {files: examples/gobench-workload, run: sh /workload/run.sh, output: gobench}
        arms:
          - {name: a, role: baseline, kernel: k}
          - {name: b, role: candidate, kernel: k}
        """, dir, base);

    assertThat(s.workload().files()).isEqualTo(dir.resolve("examples/gobench-workload"));
    assertThat(s.metrics()).containsExactly("Stat-2_ns/op");
    FleetConfig.Benchmark b = s.applyTo(base, s.benchmark()).benchmark("host-volume");
    assertThat(b.workload()).isEqualTo(s.workload());
    assertThat(b.volume()).isEqualTo("host");
    assertThat(b.metrics()).isEmpty();
    assertThat(b.gating()).isEmpty();
    assertThat(base.benchmark("host-volume").workload()).as("the fleet itself is unchanged").isNull();
  }

  @Test
  void aSpecFileWithAWorkloadRefusesIterations() {
    assertThatThrownBy(() -> SpecFileLoader.parse("spec.yaml", """
        iterations: 3
        workload: {files: examples/gobench-workload, run: x}
        arms:
          - {name: a, role: baseline, kernel: k}
          - {name: b, role: candidate, kernel: k}
        """, dir, FleetConfigLoader.embeddedDefault()))
        .hasMessageStartingWith("spec.yaml:1: iterations is a fleetbench setting");
  }
}
