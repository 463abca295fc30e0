package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Which experiments the engine decides with the joint sign-flip family, and how. */
class SmallFamilyTest {
  /** Three metrics, 10 pairs; metric 0 of the candidate about 6% faster. */
  static List<MetricInput> experiment(int pairs, long seed, String... names) {
    SplittableRandom rng = new SplittableRandom(seed);
    double[][] a = new double[names.length][pairs];
    double[][] c = new double[names.length][pairs];
    for (int i = 0; i < pairs; i++) {
      double pair = 0.04 * rng.nextGaussian();
      double ba = 0.02 * rng.nextGaussian();
      double bc = 0.02 * rng.nextGaussian();
      for (int j = 0; j < names.length; j++) {
        a[j][i] = 1000 * Math.exp(pair + ba + 0.02 * rng.nextGaussian());
        c[j][i] = 1000 * Math.exp(pair + bc + 0.02 * rng.nextGaussian() + (j == 0 ? 0.06 : 0));
      }
    }
    List<MetricInput> in = new ArrayList<>();
    for (int j = 0; j < names.length; j++) {
      in.add(MetricInput.paired(names[j], "ops/s", Direction.HIGHER, true, a[j], c[j], null,
          null));
    }
    return in;
  }

  @Test
  void tenPairsAreDecidedByTheJointTest() {
    List<MetricInput> in = experiment(10, 5, "m0", "m1", "m2");
    List<Comparison> out = VerdictEngine.compare(in, Policy.DEFAULT);

    double[][] logA = new double[3][];
    double[][] logC = new double[3][];
    for (int j = 0; j < 3; j++) {
      logA[j] = java.util.Arrays.stream(in.get(j).baseline()).map(Math::log).toArray();
      logC[j] = java.util.Arrays.stream(in.get(j).candidate()).map(Math::log).toArray();
    }
    JointSignFlip.Result joint = JointSignFlip.test(logA, logC, 0.05);
    for (int j = 0; j < 3; j++) {
      assertThat(out.get(j).pAdjusted()).isEqualTo(joint.adjusted()[j]);
      assertThat(out.get(j).pValue()).isEqualTo(joint.pValues()[j]);
      assertThat(out.get(j).ciLow()).isCloseTo(Math.expm1(joint.logIntervals()[j][0]),
          within(1e-12));
      assertThat(out.get(j).change()).isCloseTo(Math.expm1(joint.logEstimates()[j]),
          within(1e-12));
    }
    assertThat(out.get(0).verdict()).isEqualTo(Verdict.IMPROVED);
    assertThat(out.get(0).ciLow()).isPositive();
    assertThat(out).extracting(Comparison::adjustment).containsOnly(Adjustment.MAXT);
  }

  @Test
  void seventeenPairsOrLooksOrARepeatedMetricNameUseTheGeneralPath() {
    List<MetricInput> big = experiment(17, 5, "m0", "m1", "m2");
    List<MetricInput> twoArms = experiment(10, 5, "m0", "m0", "m1");
    List<MetricInput> small = experiment(10, 5, "m0", "m1", "m2");
    Policy looks = Policy.DEFAULT.withLooks(List.of(5, 10));

    assertThat(SmallFamily.evaluate(big, Policy.DEFAULT, 1)).isNull();
    assertThat(SmallFamily.evaluate(twoArms, Policy.DEFAULT, 1)).isNull();
    assertThat(VerdictEngine.compare(small, looks))
        .isEqualTo(SequentialPlan.of(looks).decide(1, small, VerdictEngine.DEFAULT_SEED)
            .comparisons());
    // The report says which family rule decided: Holm on the general path.
    assertThat(VerdictEngine.compare(big, Policy.DEFAULT)).extracting(Comparison::adjustment)
        .containsOnly(Adjustment.HOLM);
    assertThat(VerdictEngine.compare(small, looks)).extracting(Comparison::adjustment)
        .containsOnly(Adjustment.HOLM);
  }

  @Test
  void nonGatingMetricsKeepTheirOwnTestAtAlpha() {
    List<MetricInput> in = new ArrayList<>(experiment(10, 5, "m0", "m1", "m2"));
    in.set(2, in.get(2).withGating(false));
    List<Comparison> out = VerdictEngine.compare(in, Policy.DEFAULT);
    assertThat(out.get(2).pAdjusted()).isEqualTo(out.get(2).pValue());
    assertThat(out.get(2).gating()).isFalse();
    assertThat(out.get(2).adjustment()).isEqualTo(Adjustment.NONE);
    assertThat(out.get(0).adjustment()).isEqualTo(Adjustment.MAXT);
  }
}
