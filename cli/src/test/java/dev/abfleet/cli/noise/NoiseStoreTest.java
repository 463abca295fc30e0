package dev.abfleet.cli.noise;

import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.controller.noise.NoiseMeasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.abfleet.config.Problem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoiseStoreTest {
  private static NoiseRecord measured(String verdict, LocalDate day) {
    return NoiseMeasure.of(AaExperimentsFixture.twoPairs(verdict), day).get(0);
  }

  @Test
  void keyIsAFilesystemSafeFormOfTheLabel() {
    assertThat(NoiseStore.key("qemu/tcg")).isEqualTo("qemu_tcg");
    assertThat(NoiseStore.key("qemu/kvm cpu_model=AMD EPYC 7B13")).isEqualTo("qemu_kvm_cpu_model=AMD_EPYC_7B13");
    assertThat(NoiseStore.key("../x")).isEqualTo("_.._x");
  }

  @Test
  void mergeAccumulatesExperimentsAndPairsAndKeepsTheLatestDate(@TempDir Path dir) {
    NoiseStore store = new NoiseStore(dir);
    store.merge(measured("regressed", LocalDate.of(2026, 12, 3)));
    NoiseRecord merged = store.merge(measured("no_change", LocalDate.of(2026, 12, 1)));

    assertThat(merged.experiments()).isEqualTo(2);
    assertThat(merged.falsePositives()).isOne();
    assertThat(merged.date()).isEqualTo(LocalDate.of(2026, 12, 3));
    MetricNoise m = merged.metric("metadata_stat");
    assertThat(m.pairs()).isEqualTo(4);
    assertThat(m.boots().n()).isEqualTo(8);
    // Medians 100,110,100,90 twice: sd sqrt(400/7) = 7.559289 around 100.
    assertThat(m.cv()).isCloseTo(0.07559289, within(1e-7));
    assertThat(Files.exists(dir.resolve("qemu_tcg.json"))).isTrue();
    assertThat(store.load("qemu/tcg")).contains(merged);
  }

  @Test
  void aRecordRoundTripsThroughItsFile(@TempDir Path dir) {
    NoiseStore store = new NoiseStore(dir);
    NoiseRecord r = store.merge(measured("no_change", LocalDate.of(2026, 12, 3)));
    assertThat(new NoiseStore(dir).loadAll()).containsExactly(r);
    assertThat(new NoiseStore(dir).loadKey("qemu_tcg")).contains(r);
  }

  @Test
  void aCorruptRecordNamesTheFileAndTheFix(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("qemu_tcg.json"), "{\"format_version\": 1, \"class\": \"qemu/tcg\"");
    assertThatThrownBy(() -> new NoiseStore(dir).load("qemu/tcg"))
        .isInstanceOf(Problem.class)
        .hasMessageContaining(dir.resolve("qemu_tcg.json").toString())
        .hasMessageContaining("delete it and re-run abfleet calibrate --real");
  }

  @Test
  void aRecordOfAnotherLabelWithTheSameKeyIsNotQuotedForThisClass(@TempDir Path dir) {
    NoiseStore store = new NoiseStore(dir);
    store.merge(measured("no_change", LocalDate.of(2026, 12, 3)));
    assertThat(store.load("qemu tcg")).isEmpty();
  }
  @Test
  void theNewestPairedLogRatiosAreKeptUpToTheLimitOldestFirst(@TempDir Path dir) {
    NoiseStore store = new NoiseStore(dir);
    double[] first = new double[300];
    double[] second = new double[300];
    for (int i = 0; i < 300; i++) {
      first[i] = i * 1e-4;
      second[i] = -i * 1e-4;
    }
    store.merge(record(MetricNoise.of("metadata_stat", Moments.of(100, 101), first)));
    NoiseRecord merged = store.merge(record(MetricNoise.of("metadata_stat", Moments.of(100, 101), second)));

    MetricNoise m = merged.metric("metadata_stat");
    assertThat(m.pairs()).isEqualTo(600);
    assertThat(m.recent()).hasSize(MetricNoise.RECENT_MAX);
    assertThat(m.recent().get(0)).isEqualTo(first[200]);
    assertThat(m.recent().get(MetricNoise.RECENT_MAX - 1)).isEqualTo(second[299]);
    assertThat(new NoiseStore(dir).load("qemu/tcg")).contains(merged);
  }

  @Test
  void aRecordWithoutKeptRatiosStillReadsAndPlansFromItsSd(@TempDir Path dir) throws Exception {
    NoiseStore store = new NoiseStore(dir);
    store.merge(record(MetricNoise.of("metadata_stat", Moments.of(100, 101), 0.03, -0.01, 0.02)));
    Path f = store.file("qemu/tcg");
    Files.writeString(f, Files.readString(f).replaceAll("(?s),\\s*\"recent_log_ratios\"\\s*:\\s*\\[[^]]*]", ""));
    assertThat(Files.readString(f)).doesNotContain("recent_log_ratios");

    MetricNoise m = new NoiseStore(dir).load("qemu/tcg").orElseThrow().metric("metadata_stat");
    assertThat(m.recent()).isEmpty();
    assertThat(m.pairsFor(0.04, 0.02, 0.05, 1, 0.8))
        .isEqualTo(dev.abfleet.stats.PowerPlan.pairs(m.pairedSd(), 0.04, 0.02, 0.05, 1, 0.8));
  }

  private static NoiseRecord record(MetricNoise m) {
    return new NoiseRecord("qemu/tcg", 1, 0, LocalDate.of(2026, 12, 3), List.of("metadata_stat"),
        List.of(m));
  }

  @Test
  void aClassOfSimHostsIsMarkedSimulatedAndAQemuClassIsNot(@TempDir Path dir) throws Exception {
    NoiseStore store = new NoiseStore(dir);
    NoiseRecord sim = measured("no_change", LocalDate.of(2026, 12, 3));
    sim = new NoiseRecord("sim/sim cpu=a", sim.experiments(), sim.falsePositives(), sim.date(), sim.gating(),
        sim.metrics());
    NoiseRecord qemu = new NoiseRecord("qemu/tcg", sim.experiments(), sim.falsePositives(), sim.date(), sim.gating(),
        sim.metrics());
    store.merge(sim);
    store.merge(qemu);

    assertThat(Files.readString(store.file("sim/sim cpu=a"))).contains("\"simulated\" : true");
    assertThat(Files.readString(store.file("qemu/tcg"))).doesNotContain("simulated");
    NoiseRecord read = store.load("sim/sim cpu=a").orElseThrow();
    assertThat(read.simulated()).isTrue();
    assertThat(read.shownClass()).isEqualTo("sim/sim cpu=a (SIMULATION)");
    assertThat(store.load("qemu/tcg").orElseThrow().shownClass()).isEqualTo("qemu/tcg");
  }
}
