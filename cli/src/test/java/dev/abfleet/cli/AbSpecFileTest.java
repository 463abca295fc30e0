package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code abfleet ab --spec FILE} and --benchmark, --vcpus, --pin: what goes into the submitted spec. */
class AbSpecFileTest {
  @TempDir Path dir;
  private Path kernel;
  private Path spec;

  @BeforeEach
  void kernelAndSpec() throws IOException {
    System.setProperty("abfleet.home", Files.createDirectory(dir.resolve("home")).toString());
    kernel = FakeKernels.bzImage(dir);
    spec = Files.writeString(dir.resolve("exp.yaml"), """
        benchmark: host-volume
        looks: [8, 16]
        vm: {memory_mib: 1024}
        arms:
          - {name: stock, role: baseline, kernel: vmlinuz}
          - name: loose
            role: candidate
            kernel: vmlinuz
            cmdline: quiet
            modules: [9p]
            volume_options: cache=loose
          - name: pinned
            role: ceiling
            kernel: vmlinuz
            vm: {vcpus: 2, pin_vcpus: true}
        """);
  }

  @AfterEach
  void restoreHome() {
    System.clearProperty("abfleet.home");
  }

  private static ExperimentSpec submitted(String... args) {
    AbCommand ab = new AbCommand();
    new CommandLine(ab).parseArgs(args);
    return ab.request().toSpec(List.of());
  }

  @Test
  void specFileArmsReachTheSubmittedSpecWithTheirOwnShapes() {
    ExperimentSpec s = submitted("--spec", spec.toString());

    assertThat(s.getArmsList()).extracting(Arm::getName, Arm::getRole)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("stock", "baseline"),
            org.assertj.core.groups.Tuple.tuple("loose", "candidate"),
            org.assertj.core.groups.Tuple.tuple("pinned", "ceiling"));
    Arm loose = s.getArms(1);
    assertThat(loose.getBoot().getKernel().getUri()).isEqualTo(kernel.toString());
    assertThat(loose.getBoot().getCmdlineExtra()).isEqualTo("quiet");
    assertThat(loose.getBoot().getModulesList()).containsExactly("9p");
    assertThat(loose.getBoot().getVolumeOptions()).isEqualTo("cache=loose");
    assertThat(loose.getBoot().getShape().getVcpus()).isEqualTo(1);
    assertThat(loose.getBoot().getShape().getMemoryMib()).isEqualTo(1024);
    assertThat(loose.getBoot().getShape().getPinVcpus()).isFalse();
    Arm pinned = s.getArms(2);
    assertThat(pinned.getBoot().getShape().getVcpus()).isEqualTo(2);
    assertThat(pinned.getBoot().getShape().getMemoryMib()).isEqualTo(1024);
    assertThat(pinned.getBoot().getShape().getPinVcpus()).isTrue();
  }

  @Test
  void specFileBenchmarkAndDesignReachTheSubmittedSpec() {
    ExperimentSpec s = submitted("--spec", spec.toString());

    assertThat(s.getBenchmark().getVolume()).isEqualTo("host");
    assertThat(s.getBenchmark().getMetricsList()).contains("find_recursive", "rm_rf");
    assertThat(s.getPolicy().getLooksList()).containsExactly(8, 16);
  }

  @Test
  void optionsOverrideTheSpecFile() {
    ExperimentSpec s = submitted("--spec", spec.toString(), "--pairs", "6", "--benchmark", "fuse-metadata",
        "--vcpus", "3");

    assertThat(s.getPolicy().getLooksList()).isEmpty();
    assertThat(s.getPolicy().getPairs()).isEqualTo(6);
    assertThat(s.getBenchmark().getVolume()).isEqualTo("guest");
    assertThat(s.getArmsList()).allSatisfy(a -> assertThat(a.getBoot().getShape().getVcpus()).isEqualTo(3));
    assertThat(s.getArms(2).getBoot().getShape().getPinVcpus()).isTrue();
  }

  @Test
  void pinPinsEveryArm() {
    ExperimentSpec s = submitted("--baseline", "a=" + kernel, "--candidate", "b=" + kernel, "--pin", "--vcpus", "2");

    assertThat(s.getArmsList()).allSatisfy(a -> {
      assertThat(a.getBoot().getShape().getPinVcpus()).isTrue();
      assertThat(a.getBoot().getShape().getVcpus()).isEqualTo(2);
    });
  }

  @Test
  void withoutVmOptionsArmsTakeFleetYamlsShapeUnpinned() {
    ExperimentSpec s = submitted("--baseline", "a=" + kernel, "--candidate", "b=" + kernel);

    assertThat(s.getArmsList()).allSatisfy(a -> {
      assertThat(a.getBoot().getShape().getPinVcpus()).isFalse();
      assertThat(a.getBoot().getShape().getVcpus()).isEqualTo(1);
      assertThat(a.getBoot().getShape().getMemoryMib()).isEqualTo(512);
    });
  }

  @Test
  void benchmarkOptionPicksAFleetYamlBenchmark() {
    ExperimentSpec s = submitted("--baseline", "a=" + kernel, "--candidate", "b=" + kernel, "--benchmark",
        "host-volume");

    assertThat(s.getBenchmark().getVolume()).isEqualTo("host");
    assertThat(s.getBenchmark().getMetricsCount()).isEqualTo(6);
  }

  @Test
  void armsComeFromTheSpecFileAlone() {
    assertThatThrownBy(() -> submitted("--spec", spec.toString(), "--candidate", "b=" + kernel))
        .isInstanceOf(Problem.class)
        .hasMessage("--spec " + spec + " names the arms; drop --baseline, --candidate and --ceiling, or put those"
            + " arms in the file");
  }

  @Test
  void aSpecArmsUnusableKernelIsNamedWithItsLine() throws IOException {
    Files.writeString(spec, Files.readString(spec).replace("kernel: vmlinuz}", "kernel: missing}"));

    assertThatThrownBy(() -> submitted("--spec", spec.toString()))
        .hasMessageStartingWith(spec + ":5: arm stock: ");
  }

  @Test
  void badSpecFileExitsTwoWithFileLineAndFix() throws IOException {
    Files.writeString(spec, Files.readString(spec).replace("role: ceiling", "role: ceil"));
    StringWriter err = new StringWriter();

    int code = Main.run(new PrintWriter(err, true), "ab", "--spec", spec.toString());

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString().strip())
        .isEqualTo("abfleet: " + spec + ":13: arms[2].role is 'ceil'; expected one of baseline, candidate, ceiling");
  }

  @Test
  void vcpusOutOfRangeIsBadInput() {
    assertThatThrownBy(() -> submitted("--baseline", "a=" + kernel, "--candidate", "b=" + kernel, "--vcpus", "0"))
        .hasMessage("--vcpus 0: expected 1 to 512");
  }
}
