package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Reasons;
import dev.abfleet.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Verdicts of pairs from hosts of different classes: per class, pooled only on agreement. */
class CrossHostVerdictsTest {
  /**
   * Even pairs on host-k (qemu/kvm), odd pairs on host-t (qemu/tcg); the candidate's
   * metadata_stat is {@code kvmFactor} / {@code tcgFactor} times the baseline's.
   */
  static Map<Integer, List<RunOutcome>> pairs(int n, double kvmFactor, double tcgFactor) {
    SplittableRandom r = new SplittableRandom(5);
    Map<Integer, List<RunOutcome>> pairs = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      boolean kvm = i % 2 == 0;
      String host = kvm ? "host-k" : "host-t";
      String accel = kvm ? "kvm" : "tcg";
      double base = 1000 * Math.exp(0.01 * r.nextGaussian());
      double cand = base * (kvm ? kvmFactor : tcgFactor) * Math.exp(0.01 * r.nextGaussian());
      pairs.put(i, List.of(boot("base", host, accel, i, 0, base), boot("cand", host, accel, i, 1, cand)));
    }
    return pairs;
  }

  static RunOutcome boot(String arm, String host, String accel, int pair, int order, double stat) {
    List<Sample> samples = new ArrayList<>();
    for (int it = 0; it < 3; it++) {
      samples.add(new Sample("metadata_stat", stat, "ops/s", "higher", it, false));
      samples.add(new Sample("seq_read", 500, "MiB/s", "higher", it, false));
    }
    return new RunOutcome(arm + pair, arm, host, pair, order, 1, RunOutcome.Status.OK, accel,
        "qemu", 100, 1000, 5, "6.1.0", samples, "", "");
  }

  private static List<Comparison> rows(dev.abfleet.stats.verdict.Assessment a) {
    return a.rows().stream().filter(r -> r.arm().equals("cand")).map(r -> r.comparison()).toList();
  }

  @Test
  void pairsOnDifferentAcceleratorsGetARowPerClassAndAPooledRow() {
    var rows = rows(ReportInputs.assess(Specs.ab(16, 1), pairs(16, 1.10, 1.10), 1));
    assertThat(rows).filteredOn(c -> c.metric().equals("metadata_stat"))
        .extracting(Comparison::hostClass).containsExactly("", "qemu/kvm", "qemu/tcg");
    assertThat(rows).filteredOn(c -> c.metric().equals("metadata_stat"))
        .extracting(Comparison::verdict).containsOnly(Verdict.IMPROVED);
  }

  @Test
  void aRegressionOnOneClassOnlyLeavesThePooledRowInconclusiveAndTheOverallRegressed() {
    var assessment = ReportInputs.assess(Specs.ab(16, 1), pairs(16, 0.85, 1.0), 1);
    var stat = rows(assessment).stream().filter(c -> c.metric().equals("metadata_stat")).toList();
    assertThat(stat.get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(stat.get(0).reasons()).containsExactly(Reasons.CLASS_HETEROGENEITY);
    assertThat(stat.get(0).warnings().get(0)).contains("qemu/kvm regressed").contains("qemu/tcg no_change");
    assertThat(stat.get(1).verdict()).isEqualTo(Verdict.REGRESSED);
    assertThat(stat.get(2).verdict()).isEqualTo(Verdict.NO_CHANGE);
    assertThat(assessment.overall()).isEqualTo(Verdict.REGRESSED.wire());
  }

  @Test
  void improvedOnOneClassAndHeldOnTheOtherIsImprovedOverallThoughNotPooled() {
    var assessment = ReportInputs.assess(Specs.ab(16, 1), pairs(16, 1.15, 1.0), 1);
    assertThat(rows(assessment).get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(assessment.overall()).isEqualTo(Verdict.IMPROVED.wire());
  }

  @Test
  void bootsCarryTheirClassWithTheHostFacts() {
    RunOutcome b = boot("base", "h", "kvm", 0, 0, 1).withHostFacts("cpu=a");
    assertThat(HostClassKey.of(b)).isEqualTo("qemu/kvm cpu=a");
  }

  @Test
  void aPairWhoseBootsAllFailedTakesTheClassOfItsHost() {
    var pairs = pairs(4, 1, 1);
    RunOutcome failed = new RunOutcome("x", "base", "host-k", 4, 0, 1, RunOutcome.Status.BOOT_FAILED,
        "", "qemu", 0, 0, 0, "", List.of(), "panic", "");
    pairs.put(4, List.of(failed, failed.placed("cand", 4, 1)));
    assertThat(HostClassKey.ofPairs(pairs, "base"))
        .containsExactly("qemu/kvm", "qemu/tcg", "qemu/kvm", "qemu/tcg", "qemu/kvm");
  }

  static ExperimentSpec sequential(List<Integer> looks) {
    ExperimentSpec s = Specs.ab(0, 1);
    PolicySpec p = s.policy();
    return new ExperimentSpec(s.name(), s.arms(), s.benchmark(), s.selector(),
        new PolicySpec(p.noiseThreshold(), p.alpha(), 0, p.seed(), p.bootTimeoutS(),
            p.gatingMetrics(), looks), s.priority());
  }

  @Test
  void stopsEarlyOnlyOnceTheClassWithFewestPairsReachesALookAndEveryClassIsDecided() {
    ExperimentSpec spec = sequential(List.of(12, 24));
    // 24 pairs, 12 per class, both classes regressed clearly: decided at the first look.
    assertThat(ReportInputs.stopEarly(spec, pairs(24, 0.8, 0.8), 1)).isTrue();
    // 23 pairs: the tcg class has 11, below the first look.
    var fewer = pairs(24, 0.8, 0.8);
    fewer.remove(23);
    assertThat(ReportInputs.stopEarly(spec, fewer, 1)).isFalse();
  }

  @Test
  void doesNotStopEarlyWhileOneClassIsUndecidedThoughTheOtherRegressed() {
    ExperimentSpec spec = sequential(List.of(12, 24));
    var pairs = pairs(24, 0.8, 1.0);
    SplittableRandom r = new SplittableRandom(3);
    // The tcg class scatters by 10%: undecided at 12 pairs.
    for (int i = 1; i < 24; i += 2) {
      var boots = pairs.get(i);
      double base = ReportInputs.bootValue(boots.get(0), "metadata_stat");
      pairs.put(i, List.of(boots.get(0),
          boot("cand", "host-t", "tcg", i, 1, base * Math.exp(0.10 * r.nextGaussian()))));
    }
    assertThat(ReportInputs.stopEarly(spec, pairs, 1)).isFalse();
  }
}
