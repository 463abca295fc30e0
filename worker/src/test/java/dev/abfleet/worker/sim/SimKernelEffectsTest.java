package dev.abfleet.worker.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.worker.guest.GuestProtocol;
import dev.abfleet.worker.guest.GuestSample;
import dev.abfleet.worker.guest.ParsedRun;
import dev.abfleet.worker.vm.BootRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimKernelEffectsTest {
  private static final SimModel EXACT = new SimModel(1, 0, List.of(
      new SimMetric("metadata_stat", 80_000, "ops/s", "higher", 0, 0),
      new SimMetric("seq_read", 1_400, "MiB/s", "higher", 0, 0)), SimBootTiming.defaults(), SimNoise.none(), 0);
  private static final List<String> PARAMS =
      List.of("abfleet.metrics=metadata_stat,seq_read", "abfleet.iterations=3", "abfleet.iteration_ms=100");

  @TempDir Path dir;

  @Test
  void aKernelFileWithEffectsReadsBackTheSameEffects() throws Exception {
    Artifact a = SimArtifacts.kernel(dir, "k7", Map.of("seq_read", 0.85, "metadata_stat", 1.2));

    SimKernelEffects read = SimKernelEffects.read(Path.of(a.getUri()));

    assertThat(read.errors()).isEmpty();
    assertThat(read.effects()).containsOnly(Map.entry("seq_read", 0.85), Map.entry("metadata_stat", 1.2));
    assertThat(Files.readString(Path.of(a.getUri())))
        .startsWith("abfleet SIMULATION placeholder kernel 'k7'")
        .contains("\nsim.effect.seq_read=0.85\n");
  }

  @Test
  void aPlaceholderWithoutEffectsIsUnchangedAndSimulatesNone() throws Exception {
    Artifact a = SimArtifacts.kernel(dir, "base");

    assertThat(Files.readString(Path.of(a.getUri())))
        .isEqualTo("abfleet SIMULATION placeholder kernel 'base': the sim hypervisor never boots it\n");
    assertThat(SimKernelEffects.read(Path.of(a.getUri()))).isEqualTo(SimKernelEffects.NONE);
  }

  @Test
  void rewritingAKernelWithOtherEffectsOfTheSameLengthChangesItsHash() throws Exception {
    Artifact first = SimArtifacts.kernel(dir, "k", Map.of("seq_read", 0.85));
    Artifact second = SimArtifacts.kernel(dir, "k", Map.of("seq_read", 0.95));

    assertThat(second.getSha256()).isNotEqualTo(first.getSha256());
    assertThat(SimKernelEffects.read(Path.of(second.getUri())).effect("seq_read")).isEqualTo(0.95);
  }

  @Test
  void aFileWithoutTheMarkerSimulatesNoEffect() {
    assertThat(SimKernelEffects.parse("MZ\u0000binary kernel\nsim.effect.seq_read=0.5\n"))
        .isEqualTo(SimKernelEffects.NONE);
  }

  @Test
  void badLinesAreErrorsNamingTheLineAndTheFix() {
    SimKernelEffects e = SimKernelEffects.parse(SimKernelEffects.MARKER + " 'x'\n# why\n\nsim.effect.seq_read=-1\n"
        + "speed=2\nsim.effect.seq_read=0.9\nsim.effect.seq_read=0.8\n");

    assertThat(e.errors()).containsExactly(
        "sim kernel file line 4: 'sim.effect.seq_read=-1': the factor must be a number > 0, e.g. sim.effect.seq_read=0.85",
        "sim kernel file line 5: 'speed=2': expected sim.effect.<metric>=<factor>, e.g. sim.effect.seq_read=0.85",
        "sim kernel file line 7: 'sim.effect.seq_read=0.8': sim.effect.seq_read is given twice; keep one");
  }

  @Test
  void writingABadFactorIsRejectedWithTheValue() {
    assertThatThrownBy(() -> SimArtifacts.kernel(dir, "k", Map.of("seq_read", 0.0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("factor 0.0 for seq_read; expected a number > 0");
  }

  @Test
  void theKernelsEffectAndTheArmsTokenMultiply() throws Exception {
    Artifact k = SimArtifacts.kernel(dir, "slow", Map.of("metadata_stat", 0.5));

    ParsedRun parsed = boot(Path.of(k.getUri()), "sim.effect.metadata_stat=1.5 sim.effect.seq_read=2");

    assertThat(parsed.samples()).filteredOn(s -> s.metric().equals("metadata_stat"))
        .extracting(GuestSample::value).containsOnly(60_000.0);
    assertThat(parsed.samples()).filteredOn(s -> s.metric().equals("seq_read"))
        .extracting(GuestSample::value).containsOnly(2_800.0);
  }

  @Test
  void aBadKernelFileFailsTheBootAsAHarnessErrorNamingTheLine() throws Exception {
    Path k = Files.writeString(dir.resolve("bad"), SimKernelEffects.MARKER + " 'bad'\nsim.effect.seq_read=fast\n");

    ParsedRun parsed = boot(k, "");

    assertThat(parsed.samples()).isEmpty();
    assertThat(parsed.harnessErrors()).singleElement()
        .satisfies(e -> assertThat(e.message()).contains("SIMULATION: sim kernel file line 2"));
  }

  private ParsedRun boot(Path kernel, String cmdline) throws Exception {
    Path work = Files.createDirectories(dir.resolve("r1-e1"));
    BootRequest request = new BootRequest("r1", "x86_64", kernel, dir.resolve("initrd"), cmdline, PARAMS, 1, 512,
        Duration.ofSeconds(120), work);
    return GuestProtocol.parse(Files.readAllBytes(new SimDriver(EXACT, "sim-0001").boot(request).resultsLog()));
  }
}
