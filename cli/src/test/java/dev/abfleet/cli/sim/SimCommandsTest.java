package dev.abfleet.cli.sim;

import dev.abfleet.cli.ExitCodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input to the sim commands is one line naming the problem, exit code 2. */
class SimCommandsTest {
  @TempDir Path dir;
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(new PrintWriter(err, true), args);
  }

  @Test
  void aBadSimModelNamesTheFileAndTheKey() throws Exception {
    Path model = Files.writeString(dir.resolve("model.yaml"), "fail_rate: 3\n");

    int code = run("sim-fleet", "--workers", "2", "--controller", "127.0.0.1:1", "--sim-model", model.toString());

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString().strip()).isEqualTo("abfleet: --sim-model " + model
        + ": sim model: fail_rate is 3.0; expected a probability from 0 to 1");
  }

  @Test
  void theWorkerRefusesSimOptionsWithoutTheSimHypervisor() {
    int code = run("worker", "--controller", "127.0.0.1:1", "--host-id", "h1", "--time-scale", "0.1");

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--sim-model and --time-scale need --hypervisor sim");
  }

  @Test
  void theWorkerRefusesAnUnknownHypervisor() {
    int code = run("worker", "--controller", "127.0.0.1:1", "--host-id", "h1", "--hypervisor", "kvm2");

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--hypervisor 'kvm2': expected auto or sim");
  }

  @Test
  void theSchedulerBenchRefusesZeroWorkers() {
    int code = run("bench", "scheduler", "--workers", "0");

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--workers 0: expected 1 to 10000");
  }

  @Test
  void theSchedulerBenchRefusesAnUnknownPriorityMix() {
    int code = run("bench", "scheduler", "--priorities", "some");

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--priorities 'some': expected equal or mixed");
  }

  @Test
  void simKernelsRefusesAFirstBadOutsideTheList() {
    int code = run("sim-kernels", "--dir", dir.toString(), "--count", "16", "--first-bad", "16",
        "--effect", "seq_read=0.85");

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("--first-bad 16: expected 1 to 15");
  }

  @Test
  void simKernelsRefusesANonPositiveFactor() {
    int code = run("sim-kernels", "--dir", dir.toString(), "--first-bad", "3", "--effect", "seq_read=0");

    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("factor 0.0 for seq_read; expected a number > 0");
  }

  @Test
  void simKernelsCarryTheEffectFromTheFirstBadOn() throws Exception {
    SimKernelsCommand cmd = new SimKernelsCommand();
    new picocli.CommandLine(cmd).parseArgs("--dir", dir.toString(), "--count", "4", "--first-bad", "2",
        "--effect", "seq_read=0.85");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

    cmd.write(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));

    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8).lines())
        .extracting(p -> dev.abfleet.worker.sim.SimKernelEffects.read(Path.of(p)).effect("seq_read"))
        .containsExactly(1.0, 1.0, 0.85, 0.85);
  }
}
