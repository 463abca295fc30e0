package dev.abfleet.controller.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

public class NoiseHistoryTest {
  final NoiseHistory.Rule rule = NoiseHistory.Rule.defaults();

  /** |N(0, sd)| residuals, as paired noise of that size gives. */
  public static double[] noise(int n, double sd, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      double u = rng.nextDouble();
      double v = rng.nextDouble();
      out[i] = Math.abs(sd * Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v));
    }
    return out;
  }

  @Test
  void sixfoldNoiseAfterAQuietHistoryIsADrift() {
    NoiseHistory h = NoiseHistory.empty().observed("h1", noise(100, 0.02, 1), rule)
        .observed("h1", noise(24, 0.12, 2), rule);

    assertThat(h.drift("h1", rule)).hasValueSatisfying(why ->
        assertThat(why).startsWith("paired noise drifted: median |residual| ").contains("over its last 24 pairs"));
  }

  @Test
  void steadyNoiseNeverDrifts() {
    NoiseHistory h = NoiseHistory.empty();
    for (int i = 0; i < 40; i++) {
      h = h.observed("h1", noise(8, 0.03, 10 + i), rule);
      assertThat(h.drift("h1", rule)).as("after %d reports", i + 1).isEmpty();
    }
  }

  @Test
  void oneSlowBootAmongQuietPairsIsNotADrift() {
    double[] recent = noise(24, 0.02, 3);
    recent[5] = 0.4;
    NoiseHistory h = NoiseHistory.empty().observed("h1", noise(100, 0.02, 4), rule).observed("h1", recent, rule);

    assertThat(h.drift("h1", rule)).isEmpty();
  }

  @Test
  void tooLittleHistoryDecidesNothing() {
    NoiseHistory h = NoiseHistory.empty().observed("h1", noise(40, 0.01, 5), rule)
        .observed("h1", noise(24, 0.2, 6), rule);

    assertThat(h.drift("h1", rule)).as("40 older residuals < 48").isEmpty();
  }

  @Test
  void noiseBelowTheFloorIsNotADriftEvenWhenItGrows() {
    NoiseHistory h = NoiseHistory.empty().observed("h1", noise(100, 0.0005, 7), rule)
        .observed("h1", noise(24, 0.004, 8), rule);

    assertThat(h.drift("h1", rule)).isEmpty();
  }

  @Test
  void keepsOnlyTheNewestResidualsAndIgnoresNaN() {
    NoiseHistory h = NoiseHistory.empty().observed("h1", noise(300, 0.02, 9), rule)
        .observed("h1", new double[] {Double.NaN, -0.5}, rule);

    double[] kept = h.residuals().get("h1");
    assertThat(kept).hasSize(rule.keep());
    assertThat(kept[kept.length - 1]).isEqualTo(0.5);
    assertThat(Arrays.stream(kept).allMatch(Double::isFinite)).isTrue();
  }

  @Test
  void forgottenHostStartsOver() {
    NoiseHistory h = NoiseHistory.empty().observed("h1", noise(100, 0.02, 1), rule)
        .observed("h1", noise(24, 0.12, 2), rule).forgotten("h1");

    assertThat(h.drift("h1", rule)).isEmpty();
    assertThat(h.residuals()).doesNotContainKey("h1");
  }

  @Test
  void rejectsARuleThatCannotHoldItsWindows() {
    assertThatThrownBy(() -> new NoiseHistory.Rule(24, 48, 50, 3, 0.005))
        .hasMessageContaining("keep >= recent + minHistory");
  }

  @Test
  void latestIsTheMedianOfTheNewestWindowInPercent() {
    // Older residuals are large: only the newest 3 (0.01, 0.03, 0.02) count.
    NoiseHistory h = NoiseHistory.empty().observed("h1", new double[] {0.5, 0.4, 0.01, 0.03, 0.02}, 10);

    NoiseHistory.Latest latest = h.latest("h1", 3);

    // 100 * (e^0.02 - 1), computed by hand: 2.0201340...
    assertThat(latest.medianResidualPercent()).isCloseTo(2.0201340, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(latest.pairs()).isEqualTo(3);
    assertThat(h.latest("h1", 24).pairs()).isEqualTo(5);
  }

  @Test
  void latestIsNoneForAHostNeverMeasured() {
    assertThat(NoiseHistory.empty().latest("h1", 24).known()).isFalse();
    assertThat(NoiseHistory.empty().observed("h1", new double[] {0.1}, 10).forgotten("h1")
        .latest("h1", 24)).isEqualTo(NoiseHistory.Latest.none());
  }
}
