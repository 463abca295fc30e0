package dev.abfleet.cli.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.cli.IsolatedHome;
import dev.abfleet.config.Problem;
import dev.abfleet.cli.noise.MetricNoise;
import dev.abfleet.cli.noise.Moments;
import dev.abfleet.cli.noise.NoiseRecord;
import dev.abfleet.cli.noise.NoiseStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
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
    assertThatThrownBy(() -> plan("--mde", "2%")).isInstanceOf(Problem.class)
        .hasMessageContaining("run `abfleet calibrate --real` first");
  }

  @Test
  void anUnknownClassListsTheRecordedOnes() {
    NoiseStore.inHome(home.path()).merge(new NoiseRecord("qemu/tcg", 1, 0, LocalDate.of(2026, 12, 3), List.of(),
        List.of(new MetricNoise("metadata_stat", Moments.of(100, 102), Moments.of(0.01, -0.01)))));
    assertThatThrownBy(() -> plan("--mde", "2%", "--class", "vz_vz")).isInstanceOf(Problem.class)
        .hasMessageContaining("host class 'vz_vz'").hasMessageContaining("recorded classes: qemu_tcg");
  }

  @Test
  void printsThePairsEachGatingMetricNeeds() {
    // Two paired log ratios +-h have sd sqrt(2) * h: 0.029 and 0.05.
    double h = 0.029 / Math.sqrt(2);
    List<MetricNoise> metrics = List.of(
        new MetricNoise("metadata_stat", Moments.of(100, 102), Moments.of(h, -h)),
        new MetricNoise("create_delete", Moments.of(100, 101), Moments.of(0.05 / Math.sqrt(2), -0.05 / Math.sqrt(2))));
    NoiseStore.inHome(home.path()).merge(new NoiseRecord("qemu/tcg", 3, 0, LocalDate.of(2026, 12, 3),
        List.of("metadata_stat", "create_delete", "seq_read", "negative_lookup"), metrics));

    String out = plan("--mde", "2%", "--class", "qemu_tcg");

    // sd 0.029 over 4 gating metrics at alpha 0.05, 80% power: 26 pairs (PowerPlanTest's scipy value).
    assertThat(out).containsPattern("qemu/tcg\\s+metadata_stat\\s+2\\.9%\\s+2\\s+26\\n");
    assertThat(out).containsPattern("seq_read\\s+\\?\\s+0\\s+\\? \\(not measured\\)");
    assertThat(plan("--mde", "0.02", "--metrics", "metadata_stat"))
        .containsPattern("metadata_stat\\s+2\\.9%\\s+2\\s+18\\n"); // scipy: 17.63 for one metric
  }
}
