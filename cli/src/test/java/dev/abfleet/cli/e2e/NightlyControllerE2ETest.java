package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.history.MetricHistory;
import dev.abfleet.cli.history.HistoryEntry;
import dev.abfleet.cli.nightly.NightlyClient;
import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.config.NightlySchedules;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.controller.nightly.AaNoise;
import dev.abfleet.controller.nightly.NightlySettings;
import dev.abfleet.proto.fleet.v1.GetSeriesRequest;
import dev.abfleet.proto.fleet.v1.ScheduleInfo;
import dev.abfleet.testkit.Ports;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Acceptance of the controller-run nightly: a schedule with cron {@code * * * * *} fires on a
 * controller (H2 file journal) with sim workers and no {@code abfleet nightly} process; the
 * controller is closed and a new one started on the same store, which still has every run and
 * adds the next minute's. Waits for real minute boundaries (about two minutes in all).
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT) // beside the tests that boot real kernels: see SimFleets
@ResourceLock(SimFleets.LOCK)
class NightlyControllerE2ETest {
  /** A minute boundary, plus the run itself, plus slack for a loaded machine. */
  private static final Duration NEXT_RUN = Duration.ofSeconds(100);

  @TempDir Path dir;

  @Test
  @Timeout(360)
  void aMinuteScheduleFiresWithoutANightlyProcessAndItsHistorySurvivesARestart() throws Exception {
    SimArtifacts.kernelAt(dir.resolve("stock-vmlinuz"), Map.of());
    Files.createDirectories(dir.resolve("builds"));
    SimArtifacts.kernelAt(dir.resolve("builds").resolve("vmlinuz"), Map.of("seq_read", 0.9));
    FleetConfig cfg = FleetConfigLoader.parse("fleet.yaml", "schedules:\n  - name: every-minute\n"
        + "    cron: '* * * * *'\n    candidate: {path: builds/vmlinuz}\n    baseline: {pinned: stock-vmlinuz}\n"
        + "    pairs: 6\n    hosts: {hypervisor: sim}\n");
    int port = Ports.freeLoopbackPort();
    ControllerSettings settings = ControllerSettings.defaults()
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store").resolve("controller")))
        .withGrpc("127.0.0.1", port)
        .withNightly(new NightlySettings(NightlySchedules.of(cfg, ZoneOffset.UTC), dir, UnaryOperator.identity(),
            AaNoise.NONE));
    ArtifactStoreSettings artifacts = new ArtifactStoreSettings(dir.resolve("artifacts"), 1 << 30);
    String target = "127.0.0.1:" + port;

    try (SimFleet fleet = SimFleet.start(target, 2, "sim-", SimModel.defaults().withTimeScale(0.001), Map.of(),
        dir.resolve("workers"), r -> { })) {
      List<HistoryEntry> before;
      long started = System.nanoTime();
      try (ControllerNode first = ControllerNode.start(settings, artifacts);
          NightlyClient client = new NightlyClient(target)) {
        before = awaitRuns(client, 1);
      }
      System.err.println("first run after " + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s");

      try (ControllerNode second = ControllerNode.start(settings, artifacts);
          NightlyClient client = new NightlyClient(target)) {
        List<HistoryEntry> kept = runs(client);
        assertThat(kept).as("every run survives the restart").hasSizeGreaterThanOrEqualTo(before.size());
        assertThat(kept.subList(0, before.size())).isEqualTo(before);
        List<HistoryEntry> after = awaitRuns(client, before.size() + 1);
        ScheduleInfo s = client.schedules().get(0);
        assertThat(s.getName()).isEqualTo("every-minute");
        assertThat(s.getSimulation()).isTrue();
        assertThat(s.getLastRun().getExperimentId()).isEqualTo(after.get(after.size() - 1).experiment());
        assertThat(after).allSatisfy(e -> {
          assertThat(e.state()).isEqualTo("completed");
          assertThat(e.simulation()).isTrue();
          assertThat(e.experiment()).matches("every-minute-\\d{8}T\\d{4}Z");
        });
        assertThat(after.stream().map(HistoryEntry::experiment).distinct()).hasSize(after.size());
      }
      System.err.println("done after " + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s");
    }
  }

  private static List<HistoryEntry> runs(NightlyClient client) {
    return MetricHistory.of(client.series(GetSeriesRequest.newBuilder().setSchedule("every-minute")
        .setMetric("seq_read").build())).runs();
  }

  private static List<HistoryEntry> awaitRuns(NightlyClient client, int n) throws InterruptedException {
    long deadline = System.nanoTime() + NEXT_RUN.toNanos();
    List<HistoryEntry> runs = runs(client);
    while (runs.size() < n && System.nanoTime() < deadline) {
      Thread.sleep(500);
      runs = runs(client);
    }
    assertThat(runs).as("finished runs").hasSizeGreaterThanOrEqualTo(n);
    return runs;
  }
}
