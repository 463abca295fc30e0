package dev.abfleet.cli.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.abfleet.config.Problem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
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
}
