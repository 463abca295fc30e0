package dev.abfleet.controller.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.Policy;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The probe rule's error rates by simulation: bisects of 16 artifacts with a step of {@code step}
 * at a random position, boots with log-normal noise of 3% (the sim model's seq_read), probes of
 * the bisect's defaults (threshold 2%, alpha 5%; looks 10, 15, 20, or 20, 40, 60 for the 5% step,
 * which needs them), each run by the statistics
 * the controller uses ({@link BisectionTest.FakeFleet}). Per probe: a probe before the step
 * called bad, one from it on called good (each at most alpha/2 by {@link ProbeRule}'s argument),
 * or inconclusive; per bisect: the culprit found.
 */
class ProbeRuleErrorRatesTest {
  private static final int BISECTS = 100;

  /** {@code looks} as "10;15;20". */
  @ParameterizedTest
  @CsvSource({"-0.15, 10;15;20, 0.95", "-0.10, 10;15;20, 0.95", "-0.05, 20;40;60, 0.90"})
  void misclassifiesAtMostHalfAlphaPerProbeAndFindsTheCulprit(double step, String looks, double foundAtLeast) {
    Policy policy = new Policy(0.02, 0.05, Arrays.stream(looks.split(";")).map(Integer::valueOf).toList());
    SplittableRandom positions = new SplittableRandom(25);
    int goodProbes = 0;
    int goodCalledBad = 0;
    int badProbes = 0;
    int badCalledGood = 0;
    int inconclusive = 0;
    int found = 0;
    for (int run = 0; run < BISECTS; run++) {
      int firstBad = 1 + positions.nextInt(15);
      BisectionTest.FakeFleet fleet = new BisectionTest.FakeFleet(firstBad, step, 0.03, 1000L * run + 7);
      Bisection.Result r = Bisection.search(16, 0, fleet, policy);
      found += r.found() && r.firstBad() == firstBad ? 1 : 0;
      for (Bisection.Step s : r.steps().subList(1, r.steps().size())) {
        boolean bad = s.probe() >= firstBad;
        Outcome o = s.result().outcome();
        goodProbes += bad ? 0 : 1;
        badProbes += bad ? 1 : 0;
        goodCalledBad += !bad && o == Outcome.BAD ? 1 : 0;
        badCalledGood += bad && o == Outcome.GOOD ? 1 : 0;
        inconclusive += o == Outcome.INCONCLUSIVE ? 1 : 0;
      }
    }
    System.out.printf(Locale.ROOT, "step %+.0f%%, looks %s: found %d/%d; good probes called bad %d/%d, bad probes called good"
        + " %d/%d, inconclusive %d%n", 100 * step, looks, found, BISECTS, goodCalledBad, goodProbes, badCalledGood,
        badProbes, inconclusive);
    // alpha/2 = 2.5% per probe; the counts are binomial, so allow three standard errors above it.
    assertThat((double) goodCalledBad / goodProbes).isLessThanOrEqualTo(bound(goodProbes));
    assertThat((double) badCalledGood / badProbes).isLessThanOrEqualTo(bound(badProbes));
    assertThat((double) found / BISECTS).isGreaterThanOrEqualTo(foundAtLeast);
  }

  private static double bound(int n) {
    return 0.025 + 3 * Math.sqrt(0.025 * 0.975 / n);
  }
}
