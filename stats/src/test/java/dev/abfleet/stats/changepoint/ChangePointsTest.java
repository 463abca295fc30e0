package dev.abfleet.stats.changepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChangePointsTest {
  /** Log-normal nightly values around 1000 with relative noise {@code sd}. */
  private static double[] noise(int n, double sd, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = 1000 * Math.exp(sd * gaussian(r));
    }
    return v;
  }

  private static double gaussian(SplittableRandom r) {
    double u = 1 - r.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
  }

  private static double[] step(double[] v, int at, double relative) {
    double[] out = v.clone();
    for (int i = at; i < out.length; i++) {
      out[i] *= 1 + relative;
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.005, 0.01, 0.02, 0.03})
  void flagsAStepAtItsIndexAcrossNoiseLevels(double sd) {
    for (long seed = 1; seed <= 10; seed++) {
      double[] v = step(noise(30, sd, seed), 17, -0.10);
      Detection d = ChangePoints.detect(v, seed);
      assertThat(d.points()).as("sd %s seed %d", sd, seed).isNotEmpty();
      ChangePoint cp = d.points().stream()
          .min((a, b) -> Double.compare(a.pValue(), b.pValue())).orElseThrow();
      assertThat(cp.index()).as("sd %s seed %d", sd, seed).isBetween(16, 18);
      assertThat(cp.relative()).isCloseTo(-0.10, within(0.03));
      assertThat(cp.pValue()).isLessThanOrEqualTo(0.01);
    }
  }

  @Test
  void reportsSegmentMediansAndShiftOfAStep() {
    double[] v = {100, 101, 99, 100, 102, 98, 100, 90, 91, 89, 90, 92, 88, 90};
    ChangePoint cp = ChangePoints.detect(v, 1).points().get(0);
    assertThat(cp.index()).isEqualTo(7);
    assertThat(cp.beforeMedian()).isEqualTo(100);
    assertThat(cp.afterMedian()).isEqualTo(90);
    assertThat(cp.shift()).isEqualTo(-10);
    assertThat(cp.relative()).isCloseTo(-0.1, within(1e-12));
  }

  @Test
  void aCleanStepIsPlacedAtItsFirstNightEvenWhereTheRankScanPeaksOneEarly() {
    // Nightly seq_read centers of a sim run: -15% from night 8. The standardized rank statistic
    // peaks at 7 (3.13 vs 3.10 at 8), since the lowest night before the step sits next to it.
    double[] v = {1429.1, 1395.8, 1398.8, 1420.9, 1405.3, 1440.7, 1392.7, 1392.5,
        1216.0, 1238.0, 1189.0, 1206.6, 1195.3, 1195.4};

    ChangePoint cp = ChangePoints.detect(v, 1).points().get(0);

    assertThat(cp.index()).isEqualTo(8);
    assertThat(cp.statistic()).isCloseTo(3.1305, org.assertj.core.data.Offset.offset(1e-3));
  }

  @Test
  void locationNeverMovesWhenTheScanAlreadyHasTheLeastDeviation() {
    double[] v = {100, 101, 99, 100, 102, 98, 100, 90, 91, 89, 90, 92, 88, 90};

    assertThat(ChangePoints.locate(v, 3, 7)).isEqualTo(7);
  }

  @Test
  void neverFlagsASingleSpikeWhereverItFalls() {
    double[] flat = noise(30, 0.0, 1);
    for (int at = 0; at < flat.length; at++) {
      double[] v = flat.clone();
      v[at] *= 5;
      assertThat(ChangePoints.detect(v, at).points()).as("spike at %d", at).isEmpty();
    }
  }

  @Test
  void aSpikeInNoisySeriesIsNotFlaggedAtItsNight() {
    int flaggedAtSpike = 0;
    for (long seed = 1; seed <= 200; seed++) {
      double[] v = noise(30, 0.02, seed);
      int at = 3 + (int) (seed % 24);
      v[at] *= 3;
      Detection d = ChangePoints.detect(v, seed);
      if (d.flagged(at) || d.flagged(at + 1)) {
        flaggedAtSpike++;
      }
    }
    // A split at the spike would need the spike to shift a whole segment; it should happen no
    // more often than a false alarm lands on any given split.
    assertThat(flaggedAtSpike).isLessThanOrEqualTo(2);
  }

  @Test
  void noChangeFlagsNothingInAtLeast95PercentOfSeries() {
    int flagged = 0;
    int series = 300;
    for (long seed = 1; seed <= series; seed++) {
      if (!ChangePoints.detect(noise(30, 0.02, 1000 + seed), seed).points().isEmpty()) {
        flagged++;
      }
    }
    // Level 1% per test, and only a flagged first split leads to more tests: about 3 of 300
    // expected; 15 (5%) is far beyond chance.
    assertThat(flagged).isLessThan(15);
  }

  @Test
  void falseAlarmRateMatchesAlphaWhenAlphaIsFivePercent() {
    Settings s = new Settings(0.05, 3, 199, 0);
    int flagged = 0;
    int series = 300;
    for (long seed = 1; seed <= series; seed++) {
      if (!ChangePoints.detect(noise(25, 0.02, 5000 + seed), s, seed).points().isEmpty()) {
        flagged++;
      }
    }
    // Binomial(300, 0.05): mean 15, sd 3.8; outside 4..27 means the test is miscalibrated.
    assertThat(flagged).isBetween(4, 27);
  }

  @Test
  void findsTwoStepsInOneSeries() {
    double[] v = step(step(noise(45, 0.01, 3), 15, 0.08), 30, -0.15);
    Detection d = ChangePoints.detect(v, 3);
    assertThat(d.points()).hasSize(2);
    assertThat(d.points().get(0).index()).isBetween(14, 16);
    assertThat(d.points().get(1).index()).isBetween(29, 31);
  }

  @Test
  void missingNightsKeepOriginalIndices() {
    double[] v = step(noise(24, 0.01, 4), 12, 0.2);
    v[3] = Double.NaN;
    v[5] = Double.NaN;
    Detection d = ChangePoints.detect(v, 4);
    assertThat(d.points()).singleElement().extracting(ChangePoint::index).isEqualTo(12);
    assertThat(d.warnings()).containsExactly("2 of 24 values are missing or not finite and were left out");
  }

  @Test
  void shortSeriesWarnsAndFlagsNothing() {
    Detection d = ChangePoints.detect(new double[] {1, 1, 1, 9, 9}, 1);
    assertThat(d.points()).isEmpty();
    assertThat(d.warnings()).singleElement().asString().contains("at least 6 are needed");
  }

  @Test
  void fewValuesWithNoChangeFoundWarnOfLowPower() {
    // A 3% step in 2% noise over 9 nights: real, but beyond what 9 values can show.
    Detection d = ChangePoints.detect(step(noise(9, 0.02, 11), 4, 0.03), 1);
    assertThat(d.points()).isEmpty();
    assertThat(d.warnings()).containsExactly(
        "no change found in 9 usable values; below 10, only large, clean shifts can be detected");
  }

  @Test
  void aShortSeriesWhoseChangeWasFoundCarriesNoLowPowerWarning() {
    // At the default 1% a clean 4 + 5 step is out of reach of 9 values;
    // at 5% it is found, and then no warning says it could not be.
    Detection d = ChangePoints.detect(new double[] {1, 1.1, 0.9, 1, 2, 2.1, 1.9, 2, 2.05},
        new Settings(0.05, 3, 999, 0), 1);
    assertThat(ChangePoints.detect(new double[] {1, 1.1, 0.9, 1, 2, 2.1, 1.9, 2, 2.05}, 1).warnings())
        .singleElement().asString().startsWith("no change found in 9 usable values");
    assertThat(d.points()).singleElement().extracting(ChangePoint::index).isEqualTo(4);
    assertThat(d.warnings()).isEmpty();
  }

  /** The median as a sorted copy's middle (mean of the two middle values for an even count). */
  private static double median(double[] v, int from, int to) {
    double[] s = java.util.Arrays.copyOfRange(v, from, to);
    java.util.Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  @Test
  void magnitudesAreTheMediansOfTheNeighbouringFinalSegments() {
    // Levels 100, 116, 70 (nights 0-9, 10-19, 20-29): the first split found lies at night 20
    // between a segment of 100s and 116s (median about 108) and the 70s; the final segments
    // have medians 100, 116 and 70.
    double[] v = step(step(noise(30, 0.01, 21), 10, 0.16), 20, 70.0 / 116 - 1);
    Detection d = ChangePoints.detect(v, 7);
    assertThat(d.points()).extracting(ChangePoint::index).containsExactly(10, 20);
    ChangePoint first = d.points().get(0);
    ChangePoint second = d.points().get(1);
    assertThat(first.beforeMedian()).isEqualTo(median(v, 0, 10));
    assertThat(first.afterMedian()).isEqualTo(median(v, 10, 20));
    assertThat(second.beforeMedian()).isEqualTo(median(v, 10, 20));
    assertThat(second.afterMedian()).isEqualTo(median(v, 20, 30));
    assertThat(first.relative()).isCloseTo(median(v, 10, 20) / median(v, 0, 10) - 1, within(1e-12))
        .isCloseTo(0.16, within(0.02));
    assertThat(second.shift()).isEqualTo(median(v, 20, 30) - median(v, 10, 20));
  }

  @Test
  void aChangeBelowTheMinimumIsDroppedAndItsNeighboursReadAgain() {
    // 100 -> 101 at night 12 (1%, significant in 0.1% noise), 101 -> 125 at night 24.
    double[] v = step(step(noise(36, 0.001, 31), 12, 0.01), 24, 0.24);
    assertThat(ChangePoints.detect(v, 9).points()).extracting(ChangePoint::index).containsExactly(12, 24);

    Detection d = ChangePoints.detect(v, Settings.DEFAULT.withMinRelative(0.05), 9);
    ChangePoint only = d.points().get(0);
    assertThat(d.points()).hasSize(1);
    assertThat(only.index()).isEqualTo(24);
    assertThat(only.beforeMedian()).as("the 1%% point's segments merged").isEqualTo(median(v, 0, 24));
    assertThat(only.afterMedian()).isEqualTo(median(v, 24, 36));
  }

  @Test
  void aMinimumChangeOnASeriesOfDifferencesIsJudgedOnTheShift() {
    double[] change = new double[24];
    for (int i = 0; i < change.length; i++) {
      change[i] = (i < 12 ? 0.02 : 0.04) + 0.0005 * ((i * 7) % 5 - 2);
    }
    Settings differences = Settings.DEFAULT.withDifferences(true);
    ChangePoint cp = ChangePoints.detect(change, differences, 3).points().get(0);
    assertThat(cp.relative()).as("a ratio of two ratios is no magnitude").isNaN();
    assertThat(cp.shift()).isCloseTo(0.02, within(0.002));
    assertThat(ChangePoints.detect(change, differences.withMinRelative(0.03), 3).points()).isEmpty();
    assertThat(ChangePoints.detect(change, differences.withMinRelative(0.01), 3).points()).hasSize(1);
  }

  @Test
  void shiftsBelowMinRelativeAreNotFlagged() {
    double[] v = step(noise(30, 0.002, 5), 15, 0.01);
    assertThat(ChangePoints.detect(v, 5).points()).hasSize(1);
    assertThat(ChangePoints.detect(v, Settings.DEFAULT.withMinRelative(0.02), 5).points()).isEmpty();
  }

  @Test
  void perNightChangesHaveAShiftButNoRelativeMagnitude() {
    double[] change = new double[20];
    for (int i = 0; i < change.length; i++) {
      change[i] = (i < 10 ? 0.0 : -0.05) + 0.001 * ((i * 7) % 5 - 2);
    }
    ChangePoint cp = ChangePoints.detect(change, 6).points().get(0);
    assertThat(cp.index()).isEqualTo(10);
    assertThat(cp.shift()).isCloseTo(-0.05, within(0.003));
    assertThat(cp.relative()).isNaN();
  }

  @Test
  void sameSeedSameResult() {
    double[] v = step(noise(20, 0.03, 8), 9, 0.05);
    assertThat(ChangePoints.detect(v, 42)).isEqualTo(ChangePoints.detect(v, 42));
  }
}
