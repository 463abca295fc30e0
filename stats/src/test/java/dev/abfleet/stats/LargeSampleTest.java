package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Sample sizes far above the exact ranges. At 60,000 pairs n(n+1)/2 no longer fits an int:
 * listing the Walsh averages threw NegativeArraySizeException, and 60,000 boots per arm
 * overflowed the two-sample n1 n2 the same way. Speed is measured by the benchmark commands in
 * BENCHMARKS.md ("abfleet analyze speed"), not here.
 */
class LargeSampleTest {
  private static final double LOG_SHIFT = 0.03;

  @Test
  void sixtyThousandPairsGiveAVerdict() {
    Comparison c = compare(pairedInput(60_000, 1, 0.0));
    assertThat(c.nPairs()).isEqualTo(60_000);
    assertThat(c.verdict()).isEqualTo(Verdict.IMPROVED);
    // d has sd 0.042 around 0.03: the estimate's standard error is about 0.0002
    assertThat(c.change()).isCloseTo(Math.expm1(LOG_SHIFT), within(0.001));
    assertThat(c.change()).isBetween(c.ciLow(), c.ciHigh());
    assertThat(c.ciHigh() - c.ciLow()).isLessThan(0.002);
  }

  @Test
  void sixtyThousandPairsWithSlowBootsOnOneSideGiveAVerdict() {
    // a tenth of the candidate boots 35% slower: skewed d, bounded scores, the test's own
    // estimate (the Hodges-Lehmann estimate falls outside its narrow interval)
    Comparison c = compare(pairedInput(60_000, 1, 0.1));
    assertThat(c.verdict()).isEqualTo(Verdict.IMPROVED);
    assertThat(c.change()).isBetween(c.ciLow(), c.ciHigh());
    assertThat(c.warnings()).anyMatch(w -> w.contains("bimodal"));
  }

  @Test
  void tenThousandPairsOnFourHostsGetTheHostBootstrap() {
    Comparison c = compare(pairedInput(10_000, 4, 0.0));
    assertThat(c.verdict()).isEqualTo(Verdict.IMPROVED);
    assertThat(c.change()).isBetween(c.ciLow(), c.ciHigh());
  }

  @Test
  void sixtyThousandBootsPerArmUnpairedGiveAVerdict() {
    SplittableRandom rng = new SplittableRandom(3);
    double[] base = new double[60_000];
    double[] cand = new double[60_000];
    for (int i = 0; i < base.length; i++) {
      base[i] = 1000 * Math.exp(0.05 * rng.nextGaussian());
      cand[i] = 1000 * Math.exp(LOG_SHIFT + 0.05 * rng.nextGaussian());
    }
    Comparison c = VerdictEngine.compare(List.of(MetricInput.unpaired("m", "ops/s",
        Direction.HIGHER, true, base, cand)), Policy.DEFAULT).get(0);
    assertThat(c.verdict()).isEqualTo(Verdict.IMPROVED);
    assertThat(c.change()).isCloseTo(Math.expm1(LOG_SHIFT), within(0.002));
    assertThat(c.change()).isBetween(c.ciLow(), c.ciHigh());
  }

  private static Comparison compare(MetricInput in) {
    return VerdictEngine.compare(List.of(in), Policy.DEFAULT).get(0);
  }

  /** Pairs sharing a pair factor; the candidate LOG_SHIFT faster, some boots slow. */
  private static MetricInput pairedInput(int n, int hosts, double slowShare) {
    SplittableRandom rng = new SplittableRandom(5);
    double[] base = new double[n];
    double[] cand = new double[n];
    String[] host = new String[n];
    for (int i = 0; i < n; i++) {
      double pair = 0.04 * rng.nextGaussian();
      base[i] = 1000 * Math.exp(pair + 0.03 * rng.nextGaussian());
      cand[i] = 1000 * Math.exp(pair + LOG_SHIFT + 0.03 * rng.nextGaussian()
          + (rng.nextDouble() < slowShare ? 0.3 : 0));
      host[i] = "h" + i % hosts;
    }
    return MetricInput.paired("m", "ops/s", Direction.HIGHER, true, base, cand, host, null);
  }
}
