package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PairNoiseTest {
  /** One boot of {@code arm} with both metrics at the given values. */
  static RunOutcome boot(String arm, String host, int pair, double stat, double read) {
    List<Sample> samples = List.of(
        new Sample("metadata_stat", stat, "ops/s", "higher", 0, false),
        new Sample("seq_read", read, "MiB/s", "higher", 0, false));
    return new RunOutcome(arm + pair, arm, host, pair, arm.equals("base") ? 0 : 1, 1,
        RunOutcome.Status.OK, "tcg", "qemu", 100, 1000, 5, "6.1.0", samples, "", "");
  }

  @Test
  void residualIsTheDistanceFromTheExperimentsTypicalLogRatioPerPairAndHost() {
    Map<Integer, List<RunOutcome>> pairs = new LinkedHashMap<>();
    // A +50% effect everywhere; pair 3 on h2 is 10% off it on both metrics.
    double[] stat = {1.5, 1.5, 1.5, 1.65, 1.5};
    for (int i = 0; i < 5; i++) {
      String host = i % 2 == 0 ? "h1" : "h2";
      pairs.put(i, List.of(boot("base", host, i, 1000, 500), boot("cand", host, i, 1000 * stat[i], 500 * stat[i])));
    }

    Map<String, double[]> r = PairNoise.residualsByHost(Specs.ab(5, 1), pairs);

    assertThat(r.get("h1")).containsExactly(0, 0, 0);
    assertThat(r.get("h2")[0]).isCloseTo(0, within(1e-12));
    assertThat(r.get("h2")[1]).isCloseTo(Math.log(1.1), within(1e-12));
  }

  @Test
  void tooFewPairsSayNothing() {
    Map<Integer, List<RunOutcome>> pairs = new LinkedHashMap<>();
    for (int i = 0; i < 3; i++) {
      pairs.put(i, List.of(boot("base", "h1", i, 1000, 500), boot("cand", "h1", i, 1100, 500)));
    }

    assertThat(PairNoise.residualsByHost(Specs.ab(3, 1), pairs)).isEmpty();
  }

  @Test
  void failedBootsLeaveTheirPairOut() {
    Map<Integer, List<RunOutcome>> pairs = new LinkedHashMap<>();
    for (int i = 0; i < 5; i++) {
      pairs.put(i, List.of(boot("base", "h1", i, 1000, 500), boot("cand", "h1", i, 1100, 550)));
    }
    pairs.put(5, List.of(boot("base", "h2", 5, 1000, 500),
        Specs.failed("c5", "h2", 1, RunOutcome.Status.BOOT_FAILED)));

    Map<String, double[]> r = PairNoise.residualsByHost(Specs.ab(6, 1), pairs);

    assertThat(r).containsOnlyKeys("h1");
    assertThat(r.get("h1")).hasSize(5);
  }
}
