package dev.abfleet.cli.nightly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.FleetConfigLoader;
import dev.abfleet.cli.noise.NoiseRecord;
import dev.abfleet.cli.noise.NoiseStore;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.MetricSample;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code kind: aa} schedule: one kernel as both arms, its noise merged into the class's record. */
class NightlyAaRunTest {
  @TempDir
  Path dir;

  /** Answers each A/A spec with two pairs on qemu/tcg; the second night's gating row regressed. */
  private static final class AaController implements ExperimentRunner {
    final List<ExperimentSpec> specs = new ArrayList<>();

    @Override
    public Experiment run(String id, ExperimentSpec spec) {
      specs.add(spec);
      String verdict = specs.size() == 2 ? "regressed" : "no_change";
      Experiment.Builder e = Experiment.newBuilder().setExperimentId(id).setSpec(spec).setState("completed")
          .addComparisons(Comparison.newBuilder().setArm("candidate").setMetric("metadata_stat").setGating(true)
              .setVerdict(verdict));
      double[][] values = {{100, 110}, {100, 90}};
      for (int pair = 0; pair < 2; pair++) {
        e.addBoots(boot("baseline", pair, values[pair][0]));
        e.addBoots(boot("candidate", pair, values[pair][1]));
      }
      return e.build();
    }

    private static Boot boot(String arm, int pair, double v) {
      return Boot.newBuilder().setArm(arm).setPairIndex(pair).setStatus("ok").setHostClass("qemu/tcg")
          .addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(v)).build();
    }
  }

  @Test
  void anAaScheduleBootsOneKernelAsBothArmsAndMergesItsNoise() throws Exception {
    Files.writeString(dir.resolve("vmlinuz"), "kernel");
    FleetConfig cfg = FleetConfigLoader.parse("f.yaml", "schedules:\n  - name: noise\n    kind: aa\n"
        + "    cron: '0 4 * * *'\n    kernel: {path: vmlinuz}\n    pairs: 2\n");
    AaController controller = new AaController();
    Path home = dir.resolve("home");
    NightlyRun run = new NightlyRun(cfg, dir, home, controller, new PrintStream(new ByteArrayOutputStream()));
    FleetConfig.Schedule s = cfg.schedule("noise");

    run.run(s, Instant.parse("2026-12-02T04:00:00Z"));
    run.run(s, Instant.parse("2026-12-03T04:00:00Z"));

    ExperimentSpec spec = controller.specs.get(0);
    assertThat(spec.getArms(0).getKernel()).isEqualTo(spec.getArms(1).getKernel());
    assertThat(spec.getPolicy().getPairs()).isEqualTo(2);
    NoiseRecord r = NoiseStore.inHome(home).load("qemu/tcg").orElseThrow();
    assertThat(r.experiments()).isEqualTo(2);
    assertThat(r.falsePositives()).isOne();
    assertThat(r.date()).isEqualTo(LocalDate.of(2026, 12, 3));
    assertThat(r.metric("metadata_stat").pairs()).isEqualTo(4);
  }
}
