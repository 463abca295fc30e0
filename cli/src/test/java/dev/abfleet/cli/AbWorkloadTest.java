package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.worker.artifact.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code abfleet ab} with a workload benchmark: what goes into the submitted spec. */
class AbWorkloadTest {
  @TempDir Path dir;
  private Path home;
  private Path fleet;

  @BeforeEach
  void fleetWithAWorkload() throws IOException {
    home = Files.createDirectory(dir.resolve("home"));
    System.setProperty("abfleet.home", home.toString());
    FakeKernels.bzImage(dir);
    Files.createDirectories(dir.resolve("bench"));
    Files.writeString(dir.resolve("bench/run.sh"), "echo BenchmarkX-1 1 1 ns/op\n");
    fleet = Files.writeString(dir.resolve("fleet.yaml"), """
        benchmarks:
          my-bench:
            workload: {files: bench, run: sh /workload/run.sh, output: gobench, timeout_s: 300}
            gating: [X-1_ns/op]
        """);
  }

  @AfterEach
  void restoreHome() {
    System.clearProperty("abfleet.home");
  }

  private ExperimentSpec submitted(String... extra) {
    AbCommand ab = new AbCommand();
    List<String> args = new java.util.ArrayList<>(List.of("--config", fleet.toString(), "--benchmark", "my-bench",
        "--baseline", "a=" + dir.resolve("vmlinuz"), "--candidate", "b=" + dir.resolve("vmlinuz")));
    args.addAll(List.of(extra));
    new CommandLine(ab).parseArgs(args.toArray(new String[0]));
    return ab.request().toSpec(List.of());
  }

  @Test
  void theWorkloadAndItsGatingNamesReachTheSpecUnpacked() {
    ExperimentSpec s = submitted();

    assertThat(s.getBenchmark().getWorkload().getFiles().getUri()).isEqualTo(dir.resolve("bench").toString());
    assertThat(s.getBenchmark().getWorkload().getFiles().getSha256()).isEmpty();
    assertThat(s.getBenchmark().getMetricsList()).isEmpty();
    assertThat(s.getPolicy().getGatingMetricsList()).containsExactly("X-1_ns/op");
  }

  @Test
  void metricsMayNameWhatTheWorkloadReports() {
    ExperimentSpec s = submitted("--metrics", "X-1_ns/op,X-1_MB/s");

    assertThat(s.getBenchmark().getMetricsList()).containsExactly("X-1_ns/op", "X-1_MB/s");
    assertThat(s.getPolicy().getGatingMetricsList()).containsExactly("X-1_ns/op");
  }

  @Test
  void metricsOutsideTheNameRuleAndIterationsAreBadInput() {
    assertThatThrownBy(() -> submitted("--metrics", "a b")).isInstanceOf(Problem.class)
        .hasMessageStartingWith("--metrics: metric name 'a b' is not valid");
    assertThatThrownBy(() -> submitted("--iterations", "3")).isInstanceOf(Problem.class)
        .hasMessageContaining("runs a workload").hasMessageContaining("drop --iterations");
  }

  @Test
  void attachingPacksTheDirectoryIntoTheCacheAndNamesTheLayer() throws Exception {
    ExperimentSpec s = ExperimentClient.prepared(submitted(), home);

    var files = s.getBenchmark().getWorkload().getFiles();
    assertThat(files.getUri()).startsWith(home.resolve("guest/workloads").toString()).endsWith(".cpio.gz");
    assertThat(Sha256.ofFile(Path.of(files.getUri()))).isEqualTo(files.getSha256());
    assertThat(files.getSizeBytes()).isEqualTo(Files.size(Path.of(files.getUri())));
    assertThat(ExperimentClient.prepared(s, home)).as("packed once").isEqualTo(s);
  }

  @Test
  void aDirectoryThatCannotBePackedIsBadInputNamingThePath() throws Exception {
    Files.createSymbolicLink(dir.resolve("bench/secret"), Path.of("/etc/hostname"));

    assertThatThrownBy(() -> ExperimentClient.prepared(submitted(), home)).isInstanceOf(Problem.class)
        .hasMessageContaining("bench/secret -> /etc/hostname");
  }

  @Test
  void aSpecWithoutAWorkloadIsLeftAsItIs() {
    ExperimentSpec plain = ExperimentSpec.newBuilder().setName("x").build();

    assertThat(ExperimentClient.prepared(plain, home)).isEqualTo(plain);
  }
}
