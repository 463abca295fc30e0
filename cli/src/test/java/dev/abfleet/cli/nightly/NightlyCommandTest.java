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
import dev.abfleet.testkit.SteppedClock;
import java.time.Duration;
import java.time.Instant;
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
    // 8 pairs, not the 6 the design check allows: at 6 pairs (32 sign patterns) the six gating
    // metrics' joint test rejects even a -50% step only when no other metric's pooled ranks
    // reach the same extreme under another pattern (adjusted p 1/32 or 2/32), so the verdict
    // would depend on the run's id (its seed); at 8 pairs the worst case is 6/128.
    FleetConfig cfg = FleetConfigLoader.parse("fleet.yaml", "schedules:\n  - name: sim-night\n"
        + "    cron: '30 2 * * *'\n    candidate: {path: vmlinuz}\n    baseline: {pinned: stock-vmlinuz}\n"
        + "    pairs: 8\n    hosts: {hypervisor: sim}\n");
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
          + " decision=rejected by=gate SIMULATION\n");
      assertThat(err.toString(StandardCharsets.UTF_8)).contains("abfleet: nightly: sim-night: run sim-night-")
          .contains(": running, some pairs");
      assertThat(list(client)).contains("last sim-night-").contains(" completed overall=regressed decision=rejected")
          .doesNotContain("  held ");
      assertThatThrownBy(() -> NightlyCommand.once(client, "sim-nihgt", id -> java.util.Optional.empty(), System.out,
          System.err))
          .hasMessage("no schedule 'sim-nihgt' on this controller; it runs: sim-night");
    }
  }

  @Test
  @Timeout(180)
  void aMinusFifteenPercentCandidateIsNeverTheBaselineAndAHeldRunIsListedAndDecidedByHand() throws Exception {
    SimArtifacts.kernelAt(dir.resolve("stock-vmlinuz"), Map.of());
    SimArtifacts.kernelAt(dir.resolve("vmlinuz"), Map.of("metadata_stat", 0.85));
    FleetConfig cfg = FleetConfigLoader.parse("fleet.yaml", "schedules:\n  - name: sim-night\n"
        + "    cron: '30 2 * * *'\n    candidate: {path: vmlinuz}\n    baseline: {last_accepted: stock-vmlinuz}\n"
        + "    pairs: 6\n    hosts: {hypervisor: sim}\n");
    SteppedClock clock = new SteppedClock(Instant.parse("2026-03-10T09:00:00Z"));
    NightlySettings nightly = new NightlySettings(NightlySchedules.of(cfg, ZoneOffset.UTC), dir,
        UnaryOperator.identity(), AaNoise.NONE, clock);
    try (ControllerNode controller = ControllerNode.start(ControllerSettings.inMemory().withNightly(nightly),
            new ArtifactStoreSettings(dir.resolve("artifacts"), 1 << 30));
        SimFleet fleet = SimFleet.start("127.0.0.1:" + controller.grpcPort(), 2, "sim-",
            SimModel.defaults().withTimeScale(0.001), Map.of(), dir.resolve("workers"), r -> { });
        NightlyClient client = new NightlyClient("127.0.0.1:" + controller.grpcPort())) {
      PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int code = NightlyCommand.once(client, "sim-night", id -> java.util.Optional.empty(),
          new PrintStream(out, true, StandardCharsets.UTF_8), quiet);
      assertThat(code).as("held or rejected: the baseline did not move").isEqualTo(ExitCodes.GATE);
      String first = out.toString(StandardCharsets.UTF_8).strip();
      assertThat(first).as("a -15% candidate is not accepted").doesNotContain("decision=accepted")
          .containsPattern("decision=(held|rejected) by=gate");
      NightlyRun firstRun = client.schedules().get(0).getLastRun();
      String stock = firstRun.getBaseline().getSha256();
      assertThat(firstRun.getCandidate().getSha256()).isNotEqualTo(stock);
      // One run per minute (its id is the minute): the next one a minute on.
      clock.now = clock.now.plus(Duration.ofMinutes(1));
      NightlyCommand.once(client, "sim-night", id -> java.util.Optional.empty(), quiet, quiet);
      assertThat(client.schedules().get(0).getLastRun().getBaseline().getSha256())
          .as("the next run is compared with the starting kernel again, not the -15% one").isEqualTo(stock);

      // A held run of the same schedule, as an old controller's history would carry it.
      NightlyRun held = firstRun.toBuilder().setExperimentId("sim-night-20260301T0230Z")
          .setDate("2026-03-01T02:30:00Z").setOverall("inconclusive").setAccepted(false).setDecision("held")
          .setDecidedBy("gate").setDecisionReason("gate inconclusive: metadata_stat -10.3% [-31.5%, +4.1%]"
              + " inconclusive").build();
      client.importRuns(java.util.List.of(held));
      assertThat(list(client)).contains("\n  held sim-night-20260301T0230Z (2026-03-01T02:30:00Z): gate inconclusive:"
          + " metadata_stat -10.3% [-31.5%, +4.1%] inconclusive\n");

      ByteArrayOutputStream decided = new ByteArrayOutputStream();
      NightlyDecideCommand.decide(client, "sim-night-20260301T0230Z", false, "the -15% build",
          new PrintStream(decided, true, StandardCharsets.UTF_8));
      assertThat(decided.toString(StandardCharsets.UTF_8)).startsWith("2026-03-01T02:30:00Z sim-night"
          + " sim-night-20260301T0230Z completed overall=inconclusive decision=rejected by=operator SIMULATION:"
          + " the -15% build\nthe baseline does not move\n");
      assertThat(list(client)).doesNotContain("held sim-night-20260301T0230Z");
      assertThatThrownBy(() -> NightlyDecideCommand.decide(client, "sim-night-20260301T0230Z", true, "", quiet))
          .hasMessage("run sim-night-20260301T0230Z is rejected by the operator (the -15% build); only a held run"
              + " (gate inconclusive) can be accepted or rejected");
      assertThatThrownBy(() -> NightlyDecideCommand.decide(client, "sim-night-2026", true, "", quiet))
          .hasMessageStartingWith("no nightly run sim-night-2026; the run is its experiment id");
      java.io.StringWriter err = new java.io.StringWriter();
      assertThat(dev.abfleet.cli.Main.run(new java.io.PrintWriter(err, true), "nightly", "accept",
          "sim-night-20260301T0230Z", "--reason", "late", "--controller", "127.0.0.1:" + controller.grpcPort()))
          .isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString()).startsWith("abfleet: run sim-night-20260301T0230Z is rejected by the operator")
          .hasLineCount(1);
    }
  }

  @Test
  void acceptAndRejectNeedARunAndTheListingAController() {
    java.io.StringWriter err = new java.io.StringWriter();
    assertThat(dev.abfleet.cli.Main.run(new java.io.PrintWriter(err, true), "nightly", "reject", "--controller",
        "127.0.0.1:1")).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString()).contains("Missing required parameter: 'RUN'");
    java.io.StringWriter none = new java.io.StringWriter();
    assertThat(dev.abfleet.cli.Main.run(new java.io.PrintWriter(none, true), "nightly")).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(none.toString()).isEqualTo("abfleet: --controller HOST:PORT is required: the controller runs the"
        + " schedules\n");
  }

  @Test
  void exitCodesAreAcceptedRegressedAndNotCompleted() {
    NightlyRun accepted = NightlyRun.newBuilder().setState("completed").setAccepted(true).build();
    assertThat(NightlyCommand.exitCode(accepted)).isEqualTo(ExitCodes.OK);
    assertThat(NightlyCommand.exitCode(accepted.toBuilder().setAccepted(false).build())).isEqualTo(ExitCodes.GATE);
    assertThat(NightlyCommand.exitCode(accepted.toBuilder().setAccepted(false).setDecision("held").build()))
        .as("held: the baseline did not move").isEqualTo(ExitCodes.GATE);
    assertThat(NightlyCommand.exitCode(accepted.toBuilder().setState("failed").build())).isEqualTo(ExitCodes.FAILED);
  }

  private static String list(NightlyClient client) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    NightlyCommand.list(client, new PrintStream(out, true, StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }
}
