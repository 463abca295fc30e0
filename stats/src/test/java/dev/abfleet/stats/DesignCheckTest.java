package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.DesignCheck.Design;
import dev.abfleet.stats.DesignCheck.Outcome;
import dev.abfleet.stats.DesignCheck.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The design check's minima. Reference values computed independently with scipy 1.x: the exact
 * two-sided Wilcoxon p of n same-signed differences ({@code scipy.stats.wilcoxon(range(1, n+1),
 * method='exact')}), the joint maxT share by brute force over all 2^n whole-pair sign flips, and
 * the O'Brien-Fleming / linear spending boundaries by multivariate normal integration
 * ({@code scipy.stats.multivariate_normal}, covariance sqrt(t_i / t_j)).
 */
class DesignCheckTest {
  private static final double ALPHA = 0.05;

  @Test
  void refusesOnePairWithFourGatingMetricsNamingTheFix() {
    Result r = DesignCheck.check(Design.fixed(1, ALPHA, 4, 1, false));

    assertThat(r.outcome()).isEqualTo(Outcome.REFUSE);
    assertThat(r.refusal("--pairs", "--looks")).isEqualTo("pairs 1 cannot decide (the smallest p of 1 pair"
        + " is 1): with 4 gating metrics at alpha 0.05 the smallest design that can is 6 pairs; use --pairs 6"
        + " or more");
  }

  @Test
  void refusesTwoPairsAsTheDemoWouldRun() {
    Result r = DesignCheck.check(Design.fixed(2, ALPHA, 4, 1, false));

    assertThat(r.outcome()).isEqualTo(Outcome.REFUSE);
    assertThat(r.refusal("--pairs", "--looks")).contains("smallest p of 2 pairs is 0.5").endsWith("use --pairs 6 or more");
  }

  /** scipy/brute force: maxT share 2^(1-n) reaches 0.05 first at n = 6 for 1, 4 and 6 metrics. */
  @Test
  void jointSmallSampleFamilyNeedsSixPairsWhateverTheNumberOfMetrics() {
    for (int m : new int[] {1, 4, 6}) {
      assertThat(DesignCheck.check(Design.fixed(5, ALPHA, m, 1, false)).outcome()).isEqualTo(Outcome.REFUSE);
      Result six = DesignCheck.check(Design.fixed(6, ALPHA, m, 1, false));
      assertThat(six.outcome()).isEqualTo(m == 1 ? Outcome.OK : Outcome.WARN);
      assertThat(six.gatingPairs()).isEqualTo(6);
    }
  }

  /**
   * m gating metrics: the most extreme metric's adjusted p is at most m / 2^(n-1), certain to be
   * decided once that is at most 0.05: 4/64 > 0.05 at 7 pairs, 4/128 at 8; 2/32 at 6, 2/64 at 7.
   * JointSignFlipTest shows the bound is reached.
   */
  @Test
  void aJointFamilyTooSmallToDecideAnExtremeChangeWhateverTheOtherMetricsDoIsWarned() {
    Result six = DesignCheck.check(Design.fixed(6, ALPHA, 4, 1, false));
    assertThat(six.outcome()).isEqualTo(Outcome.WARN);
    assertThat(six.warnings()).containsExactly("pairs 6: with 4 gating metrics at alpha 0.05 even a large change"
        + " on one metric is decided only when no other gating metric's pairs line up as extremely (its adjusted p"
        + " can reach 4/32); 8 pairs decide it whatever the others do");
    assertThat(DesignCheck.check(Design.fixed(7, ALPHA, 4, 1, false)).outcome()).isEqualTo(Outcome.WARN);
    assertThat(DesignCheck.check(Design.fixed(8, ALPHA, 4, 1, false)).outcome()).isEqualTo(Outcome.OK);
    assertThat(DesignCheck.check(Design.fixed(6, ALPHA, 2, 1, false)).warnings().get(0))
        .endsWith("(its adjusted p can reach 2/32); 7 pairs decide it whatever the others do");
    assertThat(DesignCheck.check(Design.fixed(7, ALPHA, 2, 1, false)).outcome()).isEqualTo(Outcome.OK);
    assertThat(DesignCheck.check(Design.fixed(6, ALPHA, 1, 1, false)).outcome()).isEqualTo(Outcome.OK);
    // Looks are judged by Holm, not the joint family: no such warning.
    assertThat(DesignCheck.check(new Design(List.of(8, 16, 24), ALPHA, 4, 1, false, 0.05, 0.10)).warnings())
        .noneMatch(w -> w.contains("line up"));
  }

  /** scipy: fewest n with wilcoxon exact p <= 0.05/8 is 9, <= 0.05/12 is 9, <= 0.05/20 is 10. */
  @Test
  void severalCandidatesShareAlphaByHolm() {
    assertThat(DesignCheck.check(Design.fixed(8, ALPHA, 4, 2, false)).gatingPairs()).isEqualTo(9);
    assertThat(DesignCheck.check(Design.fixed(8, ALPHA, 6, 2, false)).gatingPairs()).isEqualTo(9);
    assertThat(DesignCheck.check(Design.fixed(8, ALPHA, 10, 2, false)).gatingPairs()).isEqualTo(10);
    assertThat(DesignCheck.check(Design.fixed(8, ALPHA, 4, 2, false)).outcome()).isEqualTo(Outcome.REFUSE);
    assertThat(DesignCheck.check(Design.fixed(9, ALPHA, 4, 2, false)).outcome()).isEqualTo(Outcome.OK);
  }

  /** Two candidates, six gating metrics, a ceiling arm at 8 pairs (examples/fuse-spin-wait). */
  @Test
  void warnsWhenOnlyRowsOutsideTheGateCanBeDecided() {
    Result r = DesignCheck.check(Design.fixed(8, ALPHA, 6, 2, true));

    assertThat(r.outcome()).isEqualTo(Outcome.WARN);
    assertThat(r.anyPairs()).isEqualTo(6);
    assertThat(r.warnings()).containsExactly("pairs 8: no gating metric can be decided with 6 gating metrics x 2"
        + " candidates at alpha 0.05 (only the rows outside the gate can); the gate needs 9 pairs or more");
  }

  /**
   * scipy: O'Brien-Fleming nominal levels of alpha/4 at fractions 1/3, 2/3, 1 are 4.36e-6, 0.00162,
   * 0.0120 (19, 11 and 8 pairs); linear futility levels of 0.2 are 0.0667, 0.0967, 0.131 (5, 5, 4).
   */
  @Test
  void warnsWhenTheFirstLooksCannotDecide() {
    Result r = DesignCheck.check(new Design(List.of(4, 8, 12), ALPHA, 4, 1, false, 0.05, 0.10));

    assertThat(r.outcome()).isEqualTo(Outcome.WARN);
    assertThat(r.firstDecidingLook()).isEqualTo(2);
    assertThat(r.gatingPairs()).isEqualTo(8);
    assertThat(r.warnings()).containsExactly(
        "looks [4, 8, 12]: look 1 cannot decide; the first look that can is look 2 (8 pairs)",
        "looks [4, 8, 12]: looks 1 to 2 can only stop for futility (no_change; O'Brien-Fleming spends little"
            + " alpha early); improved or regressed first at look 3 (12 pairs)");
  }

  @Test
  void theCommentedFleetDefaultLooksDecideFromLookTwo() {
    Result r = DesignCheck.check(new Design(List.of(8, 16, 24), ALPHA, 4, 1, false, 0.05, 0.10));

    assertThat(r.outcome()).isEqualTo(Outcome.WARN);
    assertThat(r.firstDecidingLook()).isEqualTo(1);
    assertThat(r.warnings()).containsExactly("looks [8, 16, 24]: look 1 can only stop for futility (no_change;"
        + " O'Brien-Fleming spends little alpha early); improved or regressed first at look 2 (16 pairs)");
  }

  /** scipy: at [3, 6] the last look's efficacy level 0.0124 needs 8 pairs, futility's 0.151 needs 4. */
  @Test
  void warnsWhenOnlyAFutilityStopCanBeReached() {
    Result r = DesignCheck.check(new Design(List.of(3, 6), ALPHA, 4, 1, false, 0.05, 0.10));

    assertThat(r.outcome()).isEqualTo(Outcome.WARN);
    assertThat(r.warnings()).containsExactly("looks [3, 6]: look 1 cannot decide; the first look that can is look"
        + " 2 (6 pairs)", "looks [3, 6]: improved and regressed cannot be reached with 4 gating metrics at alpha"
        + " 0.05, only a futility stop (no_change); they need a last look of 8 pairs or more");
  }

  /** scipy: at [2, 3] futility needs 4 pairs at both looks, efficacy 8 at the last. */
  @Test
  void refusesLooksThatCannotDecideNamingTheLastLookNeeded() {
    Result r = DesignCheck.check(new Design(List.of(2, 3), ALPHA, 4, 1, false, 0.05, 0.10));

    assertThat(r.outcome()).isEqualTo(Outcome.REFUSE);
    assertThat(r.refusal("policy.pairs", "policy.looks")).isEqualTo("looks [2, 3] cannot decide (the smallest p"
        + " of 3 pairs is 0.25): with 4 gating metrics at alpha 0.05 these looks need a last look of 8 pairs or"
        + " more; use policy.looks ending at 8 or more (or policy.pairs 6)");
  }

  /**
   * The table in docs/how-it-works.md. scipy: fewest n with wilcoxon exact p at most 0.05/m is 6, 7,
   * 8, 8, 9, 9, 10 for m = 1, 2, 4, 6, 8, 12, 20; the last O'Brien-Fleming look at thirds (nominal
   * 0.0463, 0.0236, 0.0120, 0.00804, 0.00605, 0.00406, 0.00245) needs the same.
   */
  @Test
  void fewestPairsTableMatchesScipy() {
    int[] family = {1, 2, 4, 6, 8, 12, 20};
    int[] expected = {6, 7, 8, 8, 9, 9, 10};
    for (int i = 0; i < family.length; i++) {
      int m = family[i];
      assertThat(DesignCheck.check(Design.fixed(2, ALPHA, 1, m, false)).gatingPairs()).as("holm m=" + m)
          .isEqualTo(m == 1 ? 6 : expected[i]);
      assertThat(DesignCheck.check(new Design(List.of(8, 16, 24), ALPHA, m, 1, false, 0, 0.1)).gatingPairs())
          .as("looks m=" + m).isEqualTo(expected[i]);
    }
  }

  /**
   * One declared look is judged by the sequential plan (Holm at alpha/4: 8 pairs, scipy), not the
   * joint family (6); its futility interval at 2 beta = 0.2 needs 4 pairs.
   */
  @Test
  void oneDeclaredLookIsNotTheJointFamily() {
    Design look = new Design(List.of(6), ALPHA, 4, 1, false, 0, 0.1, true);

    assertThat(DesignCheck.check(look).outcome()).isEqualTo(Outcome.REFUSE);
    assertThat(DesignCheck.check(look).refusal("--pairs", "--looks")).contains("looks [6] cannot decide")
        .contains("a last look of 8 pairs");
    assertThat(DesignCheck.check(Design.fixed(6, ALPHA, 4, 1, false)).gatingPairs()).isEqualTo(6);
    Result futile = DesignCheck.check(new Design(List.of(6), ALPHA, 4, 1, false, 0.05, 0.1, true));
    assertThat(futile.outcome()).isEqualTo(Outcome.WARN);
    assertThat(futile.warnings()).singleElement().asString().contains("only a futility stop");
  }

  @Test
  void acceptsTheDefaultFixedDesign() {
    Result r = DesignCheck.check(Design.fixed(8, ALPHA, 4, 1, false));

    assertThat(r.outcome()).isEqualTo(Outcome.OK);
    assertThat(r.warnings()).isEmpty();
    assertThat(r.refusal("--pairs", "--looks")).isEmpty();
  }

  /**
   * The check agrees with the engine: at the minimum a clear shift is called on every metric; one
   * pair fewer, no metric gets a verdict or an interval. Joint family and Holm family both.
   */
  @Test
  void minimaAgreeWithTheEngine() {
    for (int candidates : new int[] {1, 2}) {
      int min = DesignCheck.check(Design.fixed(2, ALPHA, 4, candidates, false)).gatingPairs();
      List<Comparison> at = VerdictEngine.compare(shifted(min, 4, candidates), Policy.DEFAULT);
      List<Comparison> below = VerdictEngine.compare(shifted(min - 1, 4, candidates), Policy.DEFAULT);

      assertThat(at).extracting(Comparison::verdict).containsOnly(Verdict.IMPROVED);
      assertThat(below).extracting(Comparison::verdict).containsOnly(Verdict.INCONCLUSIVE);
      assertThat(below).allSatisfy(c -> assertThat(c.ciLow()).isNaN());
    }
  }

  /** Metrics m0..m{m-1} per candidate, every candidate value 50% above its baseline. */
  private static List<MetricInput> shifted(int pairs, int metrics, int candidates) {
    SplittableRandom rng = new SplittableRandom(7);
    List<MetricInput> in = new ArrayList<>();
    for (int c = 0; c < candidates; c++) {
      for (int j = 0; j < metrics; j++) {
        double[] a = new double[pairs];
        double[] b = new double[pairs];
        for (int i = 0; i < pairs; i++) {
          a[i] = 1000 * Math.exp(0.01 * rng.nextGaussian());
          b[i] = 1500 * Math.exp(0.01 * rng.nextGaussian());
        }
        in.add(MetricInput.paired("m" + j, "ops/s", Direction.HIGHER, true, a, b, null, null));
      }
    }
    return in;
  }
}
