package dev.abfleet.cli.nightly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.config.NightlySchedules;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.controller.nightly.AaNoise;
import dev.abfleet.controller.nightly.NightlySettings;
import dev.abfleet.proto.fleet.v1.NightlyRun;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code abfleet nightly} against an in-process controller with two sim workers. */
class NightlyCommandTest {
  @TempDir Path dir;

  @Test
  @Timeout(120)
  void listsTheControllersSchedulesAndOnceRunsOneAndSaysHowItWent() throws Exception {
    SimArtifacts.kernelAt(dir.resolve("stock-vmlinuz"), Map.of());
    SimArtifacts.kernelAt(dir.resolve("vmlinuz"), Map.of("metadata_stat", 0.5));
    FleetConfig cfg = FleetConfigLoader.parse("fleet.yaml", "schedules:\n  - name: sim-night\n"
        + "    cron: '30 2 * * *'\n    candidate: {path: vmlinuz}\n    baseline: {pinned: stock-vmlinuz}\n"
        + "    pairs: 6\n    hosts: {hypervisor: sim}\n");
    NightlySettings nightly = new NightlySettings(NightlySchedules.of(cfg, ZoneOffset.UTC), dir,
        UnaryOperator.identity(), AaNoise.NONE);
    try (ControllerNode controller = ControllerNode.start(ControllerSettings.inMemory().withNightly(nightly),
            new ArtifactStoreSettings(dir.resolve("artifacts"), 1 << 30));
        SimFleet fleet = SimFleet.start("127.0.0.1:" + controller.grpcPort(), 2, "sim-",
            SimModel.defaults().withTimeScale(0.001), Map.of(), dir.resolve("workers"), r -> { });
        NightlyClient client = new NightlyClient("127.0.0.1:" + controller.grpcPort())) {
      assertThat(list(client)).startsWith("sim-night  cron '30 2 * * *' (Z)  next ").contains("T02:30:00Z  last none")
          .contains("SIMULATION\n" + NightlySchedules.SIMULATION);

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = NightlyCommand.once(client, "sim-night", id -> java.util.Optional.of("some pairs"),
          new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));

      String summary = out.toString(StandardCharsets.UTF_8);
      assertThat(code).as("the candidate halves metadata_stat: a gating regression").isEqualTo(ExitCodes.GATE);
      assertThat(summary).matches("\\S+Z sim-night sim-night-\\d{8}T\\d{4}Z completed overall=regressed"
          + " accepted=no SIMULATION\n");
      assertThat(err.toString(StandardCharsets.UTF_8)).contains("abfleet: nightly: sim-night: run sim-night-")
          .contains(": running, some pairs");
      assertThat(list(client)).contains("last sim-night-").contains(" completed overall=regressed accepted=no");
      assertThatThrownBy(() -> NightlyCommand.once(client, "sim-nihgt", id -> java.util.Optional.empty(), System.out,
          System.err))
          .hasMessage("no schedule 'sim-nihgt' on this controller; it runs: sim-night");
    }
  }

  @Test
  void exitCodesAreAcceptedRegressedAndNotCompleted() {
    NightlyRun accepted = NightlyRun.newBuilder().setState("completed").setAccepted(true).build();
    assertThat(NightlyCommand.exitCode(accepted)).isEqualTo(ExitCodes.OK);
    assertThat(NightlyCommand.exitCode(accepted.toBuilder().setAccepted(false).build())).isEqualTo(ExitCodes.GATE);
    assertThat(NightlyCommand.exitCode(accepted.toBuilder().setState("failed").build())).isEqualTo(ExitCodes.FAILED);
  }

  private static String list(NightlyClient client) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    NightlyCommand.list(client, new PrintStream(out, true, StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }
}
