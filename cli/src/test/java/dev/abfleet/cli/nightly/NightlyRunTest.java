package dev.abfleet.cli.nightly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.cli.history.HistoryEntry;
import dev.abfleet.cli.history.HistoryFile;
import dev.abfleet.cli.history.MetricHistory;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.stats.changepoint.Settings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NightlyRunTest {
  @TempDir
  Path dir;

  /** A controller that answers every experiment with the candidate center of run i. */
  static final class FakeController implements ExperimentRunner {
    final List<ExperimentSpec> specs = new ArrayList<>();
    final IntToDoubleFunction center;

    FakeController(IntToDoubleFunction center) {
      this.center = center;
    }

    @Override
    public Experiment run(String id, ExperimentSpec spec) {
      double c = center.applyAsDouble(specs.size());
      specs.add(spec);
      double change = c / 1000 - 1;
      String verdict = change < -0.05 ? "regressed" : change > 0.05 ? "improved" : "no_change";
      return Experiment.newBuilder().setExperimentId(id).setSpec(spec).setState("completed").setOverall(verdict)
          .addComparisons(Comparison.newBuilder().setArm("candidate").setMetric("metadata_stat").setUnit("ops/s")
              .setBetter("higher").setBaselineCenter(1000).setCandidateCenter(c).setChange(change)
              .setCiLow(change - 0.02).setCiHigh(change + 0.02).setVerdict(verdict).setGating(true))
          .build();
    }
  }

  private FleetConfig config(String baseline) throws IOException {
    Files.createDirectories(dir.resolve("builds"));
    Files.writeString(dir.resolve("stock-vmlinuz"), "stock kernel");
    return FleetConfigLoader.parse("f.yaml", "schedules:\n  - name: night\n    cron: '*/30 * * * *'\n"
        + "    candidate: {newest_in: builds}\n    baseline: " + baseline + "\n    pairs: 6\n"
        + "    hosts: {hypervisor: sim, labels: {pool: n}}\n");
  }

  private void build(int i) throws IOException {
    Path k = dir.resolve("builds").resolve("vmlinuz-" + i);
    Files.writeString(k, "kernel build " + i);
    Files.setLastModifiedTime(k, FileTime.fromMillis(1_000_000L * (i + 1)));
  }

  private NightlyRun runner(FleetConfig cfg, ExperimentRunner controller) {
    return new NightlyRun(cfg, dir, dir.resolve("home"), controller, new PrintStream(new ByteArrayOutputStream()));
  }

  private static Instant night(int i) {
    return Instant.parse("2026-03-10T02:30:00Z").plusSeconds(86_400L * i);
  }

  @Test
  void submitsANightlyExperimentOfTheScheduleSpec() throws IOException {
    FleetConfig cfg = config("{pinned: stock-vmlinuz}");
    build(0);
    FakeController controller = new FakeController(i -> 1000);
    HistoryEntry e = runner(cfg, controller).run(cfg.schedule("night"), night(0));
    ExperimentSpec spec = controller.specs.get(0);
    assertThat(spec.getPriority()).isEqualTo("nightly");
    assertThat(spec.getPolicy().getPairs()).isEqualTo(6);
    assertThat(spec.getSelector().getHypervisor()).isEqualTo("sim");
    assertThat(spec.getSelector().getLabelsMap()).containsEntry("pool", "n");
    assertThat(spec.getArms(0).getKernel().getUri()).isEqualTo(dir.resolve("stock-vmlinuz").toString());
    assertThat(spec.getArms(1).getKernel().getUri()).contains("nightly/artifacts/" + e.candidate().sha256());
    assertThat(e.experiment()).isEqualTo("night-20260310T0230Z");
    assertThat(e.accepted()).isTrue();
  }

  @Test
  void crossHostScheduleSubmitsItsHypervisorsAndClassBy() throws IOException {
    Files.createDirectories(dir.resolve("builds"));
    Files.writeString(dir.resolve("stock-vmlinuz"), "stock kernel");
    FleetConfig cfg = FleetConfigLoader.parse("f.yaml", "schedules:\n  - name: night\n    cron: '@daily'\n"
        + "    candidate: {newest_in: builds}\n    baseline: {pinned: stock-vmlinuz}\n"
        + "    hosts: {hypervisor: [qemu, vz], class_by: [label:cpu]}\n");
    build(0);
    FakeController controller = new FakeController(i -> 1000);
    runner(cfg, controller).run(cfg.schedule("night"), night(0));
    ExperimentSpec spec = controller.specs.get(0);
    assertThat(spec.getSelector().getHypervisorsList()).containsExactly("qemu", "vz");
    assertThat(spec.getSelector().getHypervisor()).isEmpty();
    assertThat(spec.getPolicy().getClassByList()).containsExactly("label:cpu");
  }

  @Test
  void newestBuildInTheDirectoryIsTheCandidate() throws IOException {
    FleetConfig cfg = config("{pinned: stock-vmlinuz}");
    build(0);
    build(1);
    Files.writeString(dir.resolve("builds").resolve("config-1"), "not a kernel");
    HistoryEntry e = runner(cfg, new FakeController(i -> 1000)).run(cfg.schedule("night"), night(0));
    assertThat(Files.readString(Path.of(e.candidate().path()))).isEqualTo("kernel build 1");
  }

  @Test
  void lastAcceptedBaselineFollowsAcceptedCandidatesOnly() throws IOException {
    FleetConfig cfg = config("{last_accepted: stock-vmlinuz}");
    FakeController controller = new FakeController(i -> i == 1 ? 800 : 1000);
    NightlyRun run = runner(cfg, controller);
    List<HistoryEntry> entries = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      build(i);
      entries.add(run.run(cfg.schedule("night"), night(i)));
    }
    assertThat(entries).extracting(HistoryEntry::accepted).containsExactly(true, false, true);
    assertThat(entries.get(0).baseline().path()).isEqualTo(dir.resolve("stock-vmlinuz").toString());
    // Night 1 regressed: night 2 is still compared with night 0's kernel.
    assertThat(entries.get(1).baseline()).isEqualTo(entries.get(0).candidate());
    assertThat(entries.get(2).baseline()).isEqualTo(entries.get(0).candidate());
  }

  @Test
  void firstRunWithoutAStartingKernelSaysHowToGiveOne() throws IOException {
    FleetConfig cfg = config("last_accepted");
    build(0);
    assertThatThrownBy(() -> runner(cfg, new FakeController(i -> 1000)).run(cfg.schedule("night"), night(0)))
        .hasMessageContaining("no run has been accepted yet; give a starting kernel, baseline: {last_accepted: KERNEL}");
  }

  @Test
  void sameDueTimeIsRecordedOnce() throws IOException {
    FleetConfig cfg = config("{pinned: stock-vmlinuz}");
    build(0);
    FakeController controller = new FakeController(i -> 1000);
    NightlyRun run = runner(cfg, controller);
    run.run(cfg.schedule("night"), night(0));
    run.run(cfg.schedule("night"), night(0));
    assertThat(controller.specs).hasSize(1);
    assertThat(HistoryFile.of(dir.resolve("home"), "night").read().entries()).hasSize(1);
  }

  @Test
  void aScheduleFiredRepeatedlyFlagsTheInjectedStepAndNotTheSpike() throws IOException {
    FleetConfig cfg = config("{pinned: stock-vmlinuz}");
    // Nightly centers: 1000 with 1% wiggle, a one-night spike at run 3, a 15% drop from run 8.
    FakeController controller = new FakeController(i ->
        (i == 3 ? 1400 : i >= 8 ? 850 : 1000) * (1 + 0.01 * ((i * 5) % 3 - 1)));
    NightlyRun run = runner(cfg, controller);
    NightlyLoopTest.FakeClock clock = new NightlyLoopTest.FakeClock("2026-03-10T00:00:00Z");
    int[] builds = {0};
    new NightlyLoop(cfg.schedules(), clock, t -> clock.now = t, (s, due) -> {
      try {
        build(builds[0]++);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      run.run(s, due);
    }).run(16);
    List<HistoryEntry> entries = HistoryFile.of(dir.resolve("home"), "night").read().entries();
    assertThat(entries).hasSize(16);
    assertThat(entries.get(1).date()).isEqualTo("2026-03-10T01:00:00Z");
    MetricHistory h = MetricHistory.of("night", "metadata_stat", "center", entries, Settings.DEFAULT);
    assertThat(h.detection().points()).singleElement().satisfies(cp -> {
      assertThat(cp.index()).isEqualTo(8);
      assertThat(cp.relative()).isBetween(-0.17, -0.13);
    });
  }
}
