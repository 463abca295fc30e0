package dev.abfleet.cli.plan;

import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.cli.IsolatedHome;
import dev.abfleet.config.Problem;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.cli.noise.NoiseStore;
import dev.abfleet.stats.PowerPlan;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

class PlanCommandTest {
  @RegisterExtension final IsolatedHome home = new IsolatedHome();

  private String plan(String... args) {
    PlanCommand cmd = new PlanCommand();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    cmd.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    new CommandLine(cmd).parseArgs(args);
    cmd.call();
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void withoutRecordsSaysToCalibrateFirst() {
    assertThatThrownBy(() -> plan("--mde", "4%")).isInstanceOf(Problem.class)
        .hasMessageContaining("run `abfleet calibrate --real` first");
  }

  @Test
  void anUnknownClassListsTheRecordedOnes() {
    NoiseStore.inHome(home.path()).merge(new NoiseRecord("qemu/tcg", 1, 0, LocalDate.of(2026, 12, 3), List.of(),
        List.of(new MetricNoise("metadata_stat", Moments.of(100, 102), Moments.of(0.01, -0.01), List.of()))));
    assertThatThrownBy(() -> plan("--mde", "4%", "--class", "vz_vz")).isInstanceOf(Problem.class)
        .hasMessageContaining("host class 'vz_vz'").hasMessageContaining("recorded classes: qemu_tcg");
  }

  @Test
  void printsThePairsEachGatingMetricNeeds() {
    // Two paired log ratios +-h have sd sqrt(2) * h: 0.029 and 0.05.
    double h = 0.029 / Math.sqrt(2);
    List<MetricNoise> metrics = List.of(
        new MetricNoise("metadata_stat", Moments.of(100, 102), Moments.of(h, -h), List.of()),
        new MetricNoise("create_delete", Moments.of(100, 101), Moments.of(0.05 / Math.sqrt(2), -0.05 / Math.sqrt(2)), List.of()));
    NoiseStore.inHome(home.path()).merge(new NoiseRecord("qemu/tcg", 3, 0, LocalDate.of(2026, 12, 3),
        List.of("metadata_stat", "create_delete", "seq_read", "negative_lookup"), metrics));

    String out = plan("--mde", "4%", "--class", "qemu_tcg");

    // The record's sd, alpha split over the 4 gating metrics, ab's 2% threshold, 80% power
    // (the plan itself is checked in PowerPlanTest and, against the engine, PowerPlanSimulationTest).
    long four = PowerPlan.pairs(0.029, 0.04, 0.02, 0.05, 4, 0.8);
    long one = PowerPlan.pairs(0.029, 0.04, 0.01, 0.05, 1, 0.8);
    assertThat(four).isGreaterThan(one);
    assertThat(out).containsPattern("qemu/tcg\\s+metadata_stat\\s+2\\.9%\\s+2\\s+" + four + "\\n");
    assertThat(out).containsPattern("seq_read\\s+\\?\\s+0\\s+\\? \\(not measured\\)");
    assertThat(out).contains("a change of 4% called at 80% power").contains("noise threshold 2%;");
    assertThat(plan("--mde", "0.04", "--metrics", "metadata_stat", "--threshold", "0.01"))
        .containsPattern("metadata_stat\\s+2\\.9%\\s+2\\s+" + one + "\\n");
  }

  /** 100 recorded differences, one in ten from a boot five times noisier: planned from the sample, not its sd. */
  @Test
  void aRecordWithKeptRatiosIsPlannedFromThem() {
    SplittableRandom rng = new SplittableRandom(5);
    double[] d = new double[100];
    for (int i = 0; i < d.length; i++) {
      d[i] = 0.03 * rng.nextGaussian() * (i % 10 == 0 ? 5 : 1);
    }
    MetricNoise m = MetricNoise.of("metadata_stat", Moments.of(100, 102), d);
    NoiseStore.inHome(home.path()).merge(new NoiseRecord("qemu/tcg", 5, 0, LocalDate.of(2026, 12, 3),
        List.of("metadata_stat"), List.of(m)));

    long fromSample = PowerPlan.pairsFromSample(d, 0.04, 0.02, 0.05, 1, 0.8);
    long fromSd = PowerPlan.pairs(m.pairedSd(), 0.04, 0.02, 0.05, 1, 0.8);
    assertThat(fromSample).isLessThan(fromSd);
    assertThat(plan("--mde", "4%")).containsPattern("metadata_stat\\s+\\S+%\\s+100\\s+" + fromSample + "\\n");
  }

  @Test
  void aChangeWithinTheNoiseThresholdIsRefusedWithTheFix() {
    NoiseStore.inHome(home.path()).merge(new NoiseRecord("qemu/tcg", 1, 0, LocalDate.of(2026, 12, 3), List.of(),
        List.of(new MetricNoise("metadata_stat", Moments.of(100, 102), Moments.of(0.01, -0.01), List.of()))));
    assertThatThrownBy(() -> plan("--mde", "2%")).isInstanceOf(Problem.class)
        .hasMessageContaining("--mde 2% is not larger than the noise threshold 2%")
        .hasMessageContaining("never called improved or regressed").hasMessageContaining("larger --mde (e.g. 4%)");
  }

  @Test
  void theThresholdAndAlphaDefaultToFleetYamlsPolicy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    NoiseStore.inHome(home.path()).merge(new NoiseRecord("qemu/tcg", 1, 0, LocalDate.of(2026, 12, 3), List.of(),
        List.of(new MetricNoise("metadata_stat", Moments.of(100, 102), Moments.of(0.02, -0.02), List.of()))));
    java.nio.file.Path yaml = java.nio.file.Files.writeString(dir.resolve("fleet.yaml"),
        "policy:\n  noise_threshold: 0.03\n  alpha: 0.01\n");

    assertThatThrownBy(() -> plan("--mde", "3%", "--config", yaml.toString())).isInstanceOf(Problem.class)
        .hasMessageContaining("not larger than the noise threshold 3%");
    assertThat(plan("--mde", "6%", "--config", yaml.toString()))
        .contains("alpha 0.01").contains("noise threshold 3%;")
        .containsPattern("metadata_stat\\s+\\S+%\\s+2\\s+"
            + PowerPlan.pairs(0.02 * Math.sqrt(2), 0.06, 0.03, 0.01, 1, 0.8) + "\\n");
    assertThat(plan("--mde", "3%", "--config", yaml.toString(), "--threshold", "0.02")).contains("noise threshold 2%;");
  }

  @Test
  void mdeIsAPercentOrAFraction() {
    assertThat(PlanCommand.parseMde("2%")).isCloseTo(0.02, within(1e-12));
    assertThat(PlanCommand.parseMde("0.02")).isCloseTo(0.02, within(1e-12));
    for (String bad : new String[] {"0", "100%", "2", "-1%", "two", ""}) {
      assertThatThrownBy(() -> PlanCommand.parseMde(bad)).isInstanceOf(Problem.class)
          .hasMessageContaining("--mde '" + bad + "'").hasMessageContaining("--mde 2% or 0.02, between 0 and 100%");
    }
  }
}
