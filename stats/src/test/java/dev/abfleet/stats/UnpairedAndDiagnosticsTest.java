package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UnpairedAndDiagnosticsTest {
  private static Comparison single(MetricInput in) {
    return VerdictEngine.compare(List.of(in), Policy.DEFAULT).get(0);
  }

  private static double[] lognormal(long seed, int n, double logMean, double sigma) {
    SplittableRandom rng = new SplittableRandom(seed);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = 1000 * Math.exp(logMean + sigma * rng.nextGaussian());
    }
    return v;
  }

  @Test
  void unpairedTwentyPercentDropOfHigherIsBetterIsRegressed() {
    Comparison c = single(MetricInput.unpaired("m", "ops/s", Direction.HIGHER, true,
        lognormal(1, 10, 0, 0.02), lognormal(2, 12, Math.log(0.8), 0.02)));
    assertThat(c.paired()).isFalse();
    assertThat(c.nBaseline()).isEqualTo(10);
    assertThat(c.nCandidate()).isEqualTo(12);
    assertThat(c.nPairs()).isZero();
    assertThat(c.change()).isCloseTo(-0.2, within(0.02));
    assertThat(c.ciHigh()).isLessThan(0);
    assertThat(c.verdict()).isEqualTo(Verdict.REGRESSED);
  }

  @Test
  void unpairedPValueIsMannWhitneyOfTheLogValues() {
    double[] x = new double[MannWhitneyTest.X7.length];
    double[] y = new double[MannWhitneyTest.Y8.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = Math.exp(MannWhitneyTest.X7[i]);
    }
    for (int i = 0; i < y.length; i++) {
      y[i] = Math.exp(MannWhitneyTest.Y8[i]);
    }
    Comparison c = single(MetricInput.unpaired("m", "ns", Direction.LOWER, false, x, y));
    assertThat(c.pValue()).isCloseTo(0.1205905205905206, within(1e-12));
    assertThat(c.change()).isCloseTo(Math.expm1(0.0852385), within(1e-9));
  }

  @Test
  void unpairedFailedBootsAreCountedPerArmAndNamed() {
    double[] base = {100, 101, Double.NaN, 99};
    Comparison c = single(MetricInput.unpaired("m", "ns", Direction.LOWER, false, base,
        new double[] {100, 102, 98}));
    assertThat(c.nBaseline()).isEqualTo(3);
    assertThat(c.warnings()).contains("1 of 4 baseline boots failed (NaN value)");
    assertThat(c.reasons()).contains(Reasons.BOOT_FAILURES);
  }

  @Test
  void unpairedEmptyArmGivesNaNAndInconclusive() {
    Comparison c = single(MetricInput.unpaired("m", "ns", Direction.LOWER, true,
        new double[0], new double[] {1, 2, 3}));
    assertThat(c.pValue()).isNaN();
    assertThat(c.change()).isNaN();
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.reasons()).contains(Reasons.UNDERPOWERED);
  }

  @Test
  void unpairedIdenticalValuesAreNoChange() {
    double[] same = {5, 5, 5, 5, 5, 5, 5, 5};
    Comparison c = single(MetricInput.unpaired("m", "ns", Direction.LOWER, false, same, same));
    assertThat(c.pValue()).isEqualTo(1.0);
    assertThat(c.change()).isZero();
    assertThat(c.verdict()).isEqualTo(Verdict.NO_CHANGE);
  }

  @Test
  void differencesThatDependOnBootOrderAreAnOrderEffect() {
    int n = 16;
    double[] base = new double[n];
    double[] cand = new double[n];
    boolean[] baselineFirst = new boolean[n];
    SplittableRandom rng = new SplittableRandom(3);
    for (int i = 0; i < n; i++) {
      baselineFirst[i] = i % 2 == 0;
      base[i] = 100 * Math.exp(0.01 * rng.nextGaussian());
      cand[i] = base[i] * (baselineFirst[i] ? 1.08 : 0.92) * Math.exp(0.005 * rng.nextGaussian());
    }
    Comparison c = single(MetricInput.paired("m", "ops/s", Direction.HIGHER, false, base, cand,
        null, baselineFirst));
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.reasons()).contains(Reasons.ORDER_EFFECT);
  }

  @Test
  void hostsThatDisagreeOnDirectionMakeItInconclusive() {
    int n = 16;
    double[] base = new double[n];
    double[] cand = new double[n];
    String[] hosts = new String[n];
    SplittableRandom rng = new SplittableRandom(4);
    for (int i = 0; i < n; i++) {
      hosts[i] = i < 12 ? "fast" : "slow";
      base[i] = 100 * Math.exp(0.01 * rng.nextGaussian());
      cand[i] = base[i] * (i < 12 ? 1.10 : 0.90) * Math.exp(0.005 * rng.nextGaussian());
    }
    Comparison c = single(MetricInput.paired("m", "ops/s", Direction.HIGHER, false, base, cand,
        hosts, null));
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.reasons()).contains(Reasons.HOST_HETEROGENEITY);
  }

  @Test
  void severalHostsWidenTheIntervalButNeverNarrowIt() {
    int n = 24;
    double[] base = lognormal(5, n, 0, 0.01);
    double[] cand = new double[n];
    String[] hosts = new String[n];
    SplittableRandom rng = new SplittableRandom(6);
    double[] hostEffect = {0.02, 0.08, 0.05};
    for (int i = 0; i < n; i++) {
      hosts[i] = "h" + (i % 3);
      cand[i] = base[i] * Math.exp(hostEffect[i % 3] + 0.01 * rng.nextGaussian());
    }
    Comparison single = single(new MetricInput("m", "ops/s", Direction.HIGHER, false, base,
        cand));
    Comparison clustered = single(MetricInput.paired("m", "ops/s", Direction.HIGHER, false,
        base, cand, hosts, null));
    assertThat(clustered.ciLow()).isLessThanOrEqualTo(single.ciLow());
    assertThat(clustered.ciHigh()).isGreaterThanOrEqualTo(single.ciHigh());
    assertThat(clustered.ciHigh() - clustered.ciLow())
        .isGreaterThan(single.ciHigh() - single.ciLow());
  }

  @Test
  void bootstrapIsReproducibleForTheSameSeed() {
    String[] hosts = new String[20];
    for (int i = 0; i < 20; i++) {
      hosts[i] = "h" + (i % 2);
    }
    MetricInput in = MetricInput.paired("m", "ops/s", Direction.HIGHER, false,
        lognormal(7, 20, 0, 0.05), lognormal(8, 20, 0.03, 0.05), hosts, null);
    Comparison a = VerdictEngine.compare(List.of(in), Policy.DEFAULT, 42).get(0);
    Comparison b = VerdictEngine.compare(List.of(in), Policy.DEFAULT, 42).get(0);
    assertThat(a.ciLow()).isEqualTo(b.ciLow());
    assertThat(a.ciHigh()).isEqualTo(b.ciHigh());
  }

  @Test
  void twoSeparatedGroupsOfBootsAreBimodal() {
    int n = 24;
    double[] base = lognormal(9, n, 0, 0.01);
    double[] cand = lognormal(10, n, 0, 0.01);
    for (int i = 0; i < n; i += 3) {
      base[i] *= 1.3; // a slow path taken by a third of the boots of either arm
      cand[i + 1] *= 1.3;
    }
    Comparison c = single(new MetricInput("m", "ms", Direction.LOWER, false, base, cand));
    assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(c.reasons()).contains(Reasons.BIMODAL);
    assertThat(c.warnings()).anyMatch(w -> w.contains("bimodal"));
  }

  @Test
  void unimodalNoiseIsNotBimodal() {
    assertThat(Bimodality.bimodal(PairedEvidence.logs(lognormal(11, 32, 0, 0.05)), 0.02)).isFalse();
  }

  @Test
  void warmupIterationsAreDroppedBeforeTheMedian() {
    Iterations.Collapsed c = Iterations.collapse(new double[] {500, 120, 100, 110},
        new boolean[] {true, false, false, false});
    assertThat(c.value()).isEqualTo(110.0);
    assertThat(c.warmupDropped()).isEqualTo(1);
  }

  @Test
  void bootWithOnlyWarmupIterationsHasNoValue() {
    Iterations.Collapsed c = Iterations.collapse(new double[] {500}, new boolean[] {true});
    assertThat(c.value()).isNaN();
    assertThat(c.onlyWarmup()).isTrue();
  }
}
