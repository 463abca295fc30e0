package dev.abfleet.cli.noise;

import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.controller.noise.NoiseMeasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoiseMeasureTest {
  private static final LocalDate DAY = LocalDate.of(2026, 12, 3);

  @Test
  void measuresCvOfBootMediansAndSdOfPairedLogRatios() {
    List<NoiseRecord> records = NoiseMeasure.of(AaExperimentsFixture.twoPairs("no_change"), DAY);

    assertThat(records).hasSize(1);
    NoiseRecord r = records.get(0);
    assertThat(r.hostClass()).isEqualTo("qemu/tcg");
    assertThat(r.experiments()).isEqualTo(1);
    assertThat(r.falsePositives()).isZero();
    assertThat(r.gating()).containsExactly("metadata_stat");
    MetricNoise m = r.metric("metadata_stat");
    // Medians 100, 110, 100, 90: mean 100, sd sqrt(200/3) = 8.16497 -> CV 0.0816497.
    assertThat(m.cv()).isCloseTo(0.0816497, within(1e-6));
    // d = ln(110/100), ln(90/100); sd = |d1 - d2| / sqrt(2) = 0.1418956 (python3: import statistics, math;
    // statistics.stdev([math.log(1.1), math.log(0.9)]) = 0.14189560954670769).
    assertThat(m.pairedSd()).isCloseTo(0.1418956, within(1e-6));
    assertThat(m.pairs()).isEqualTo(2);
  }

  @Test
  void aGatingMetricCalledRegressedIsAFalsePositiveANonGatingOneIsNot() {
    assertThat(NoiseMeasure.of(AaExperimentsFixture.twoPairs("regressed"), DAY).get(0).falsePositives()).isOne();
    assertThat(NoiseMeasure.of(AaExperimentsFixture.twoPairs("inconclusive"), DAY).get(0).falsePositives()).isZero();
  }

  @Test
  void aFailedExperimentMeasuresNothing() {
    var failed = AaExperimentsFixture.twoPairs("no_change").toBuilder().setState("failed").build();
    assertThat(NoiseMeasure.of(failed, DAY)).isEmpty();
  }

  @Test
  void momentsMergedInPiecesEqualTheMomentsOfAllValues() {
    Moments all = Moments.of(3, 1, 4, 1, 5, 9, 2, 6);
    Moments pieces = Moments.of(3, 1, 4).merge(Moments.of(1, 5)).merge(Moments.of(9, 2, 6));
    assertThat(pieces.n()).isEqualTo(8);
    assertThat(pieces.mean()).isCloseTo(all.mean(), within(1e-12));
    // python3: statistics.stdev([3, 1, 4, 1, 5, 9, 2, 6]) = 2.748376143938713
    assertThat(pieces.sd()).isCloseTo(2.748376, within(1e-6));
    assertThat(Moments.of(7).sd()).isNaN();
  }
}
