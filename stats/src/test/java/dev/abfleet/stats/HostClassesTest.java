package dev.abfleet.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HostClassesTest {
  private static final Policy POLICY = new Policy(0.02, 0.05);

  /**
   * Pairs alternating between classes a and b (index even = a), baseline ~1000 with 1% noise,
   * candidate = baseline * factor of its class.
   */
  private static HostClasses.Input input(String metric, int pairs, double factorA, double factorB,
      String classA, String classB, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] base = new double[pairs];
    double[] cand = new double[pairs];
    String[] hosts = new String[pairs];
    String[] classes = new String[pairs];
    boolean[] first = new boolean[pairs];
    for (int i = 0; i < pairs; i++) {
      boolean a = i % 2 == 0;
      base[i] = 1000 * Math.exp(0.01 * r.nextGaussian());
      cand[i] = base[i] * (a ? factorA : factorB) * Math.exp(0.01 * r.nextGaussian());
      hosts[i] = a ? "host-a" : "host-b";
      classes[i] = a ? classA : classB;
      first[i] = (i / 2) % 2 == 0;
    }
    return new HostClasses.Input(MetricInput.paired(metric, "ops/s", Direction.HIGHER, true, base,
        cand, hosts, first), classes);
  }

  @Test
  void classesThatAgreeGiveThePooledRowTheirVerdict() {
    var rows = HostClasses.compare(List.of(input("m", 24, 1.10, 1.12, "qemu/kvm", "vz/hvf", 1)),
        POLICY, 7).get(0);
    assertThat(rows).extracting(Comparison::hostClass).containsExactly("", "qemu/kvm", "vz/hvf");
    assertThat(rows).extracting(Comparison::verdict).containsOnly(Verdict.IMPROVED);
    assertThat(rows.get(0).reasons()).isEmpty();
    assertThat(rows.get(0).warnings()).noneMatch(w -> w.startsWith("the pooled pairs alone"));
  }

  @Test
  void thePooledRowsPAndIntervalComeFromTheSameTest() {
    // -5% on both classes, 6 pairs each: every class row is too short to decide, the 12 pooled
    // pairs are not; the row used to show the pooled interval, which excludes 0, next to the
    // largest class p(adj.), which does not reject
    var rows = HostClasses.compare(List.of(input("m", 12, 0.95, 0.95, "qemu/kvm", "vz/hvf", 5),
        input("n", 12, 1.0, 1.0, "qemu/kvm", "vz/hvf", 6)), POLICY, 7).get(0);
    Comparison pooled = rows.get(0);
    Comparison alone = VerdictEngine.compare(List.of(input("m", 12, 0.95, 0.95, "qemu/kvm", "vz/hvf", 5).input(),
        input("n", 12, 1.0, 1.0, "qemu/kvm", "vz/hvf", 6).input()), POLICY, 7).get(0);
    assertThat(pooled.ciHigh()).as("the pooled interval excludes 0").isLessThan(0);
    assertThat(Math.max(rows.get(1).pAdjusted(), rows.get(2).pAdjusted())).isGreaterThan(0.05);
    assertThat(pooled.pAdjusted()).isEqualTo(alone.pAdjusted()).isLessThanOrEqualTo(0.05);
    assertThat(pooled.ciLow()).isEqualTo(alone.ciLow());
    assertThat(pooled.verdict()).isNotEqualTo(alone.verdict());
    assertThat(pooled.warnings()).anyMatch(w -> w.startsWith("the pooled pairs alone read "
        + alone.verdict().wire() + " (this row's interval and p(adj.)); the pooled verdict is "
        + pooled.verdict().wire() + " because it needs every host class to agree"));
  }

  @Test
  void classesThatDisagreeLeaveThePooledRowInconclusiveWithTheFlag() {
    var rows = HostClasses.compare(List.of(input("m", 24, 0.85, 1.0, "qemu/kvm", "vz/hvf", 2)),
        POLICY, 7).get(0);
    assertThat(rows.get(1).verdict()).isEqualTo(Verdict.REGRESSED);
    assertThat(rows.get(2).verdict()).isEqualTo(Verdict.NO_CHANGE);
    Comparison pooled = rows.get(0);
    assertThat(pooled.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(pooled.reasons()).containsExactly(Reasons.CLASS_HETEROGENEITY);
    assertThat(pooled.warnings().get(0))
        .startsWith("host classes disagree, no pooled verdict: qemu/kvm regressed (-15")
        .contains("vz/hvf no_change (");
  }

  @Test
  void pairsOnDifferentAcceleratorsAreJudgedApartNeverPooledSilently() {
    var rows = HostClasses.compare(List.of(input("m", 16, 1.0, 1.2, "qemu/kvm", "qemu/tcg", 3)),
        POLICY, 7).get(0);
    assertThat(rows).extracting(Comparison::hostClass).containsExactly("", "qemu/kvm", "qemu/tcg");
    assertThat(rows).extracting(Comparison::nPairs).containsExactly(16, 8, 8);
    assertThat(rows.get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(rows.get(0).reasons()).containsExactly(Reasons.CLASS_HETEROGENEITY);
  }

  @Test
  void oneClassGivesTheOrdinaryRowWithoutAHostClass() {
    HostClasses.Input in = input("m", 12, 1.1, 1.1, "qemu/tcg", "qemu/tcg", 4);
    var rows = HostClasses.compare(List.of(in), POLICY, 7).get(0);
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0)).isEqualTo(VerdictEngine.compare(List.of(in.input()), POLICY, 7).get(0));
  }

  @Test
  void classRowsShareOneHolmFamilyAcrossInputsAndClasses() {
    var a = input("m1", 16, 1.1, 1.1, "a", "b", 5);
    var b = input("m2", 16, 1.1, 1.1, "a", "b", 6);
    var rows = HostClasses.compare(List.of(a, b), POLICY, 7);
    // Four gating class rows: the smallest of them is adjusted by a factor of 4.
    double smallestRaw = rows.stream().flatMap(r -> r.subList(1, 3).stream())
        .mapToDouble(Comparison::pValue).min().orElseThrow();
    double smallestAdjusted = rows.stream().flatMap(r -> r.subList(1, 3).stream())
        .mapToDouble(Comparison::pAdjusted).min().orElseThrow();
    assertThat(smallestAdjusted).isEqualTo(Math.min(1, 4 * smallestRaw));
  }

  @Test
  void unlabelledPairsFormTheUnknownClass() {
    var in = input("m", 8, 1.0, 1.0, "a", null, 8);
    assertThat(HostClasses.classes(List.of(in))).containsExactly("a", HostClasses.UNKNOWN);
    assertThat(HostClasses.pairsPerClass(List.of(in))).containsEntry("a", 4)
        .containsEntry(HostClasses.UNKNOWN, 4);
  }

  @Test
  void doesNotStopWhileOneClassIsUndecided() {
    Policy sequential = POLICY.withLooks(List.of(12, 24));
    // Class a regresses clearly; class b is noisy (undecided at 12 pairs).
    var in = input("m", 24, 0.80, 1.0, "a", "b", 9);
    var noisyB = noisyClassB(in);
    assertThat(HostClasses.stopAt(0, List.of(noisyB), sequential, 7)).isFalse();
    var bothClear = input("m", 24, 0.80, 0.80, "a", "b", 10);
    assertThat(HostClasses.stopAt(0, List.of(bothClear), sequential, 7)).isTrue();
  }

  /** Class b's candidate values scattered by 10%: its class row stays inconclusive. */
  private static HostClasses.Input noisyClassB(HostClasses.Input in) {
    SplittableRandom r = new SplittableRandom(99);
    double[] cand = in.input().candidate().clone();
    for (int i = 1; i < cand.length; i += 2) {
      cand[i] = in.input().baseline()[i] * Math.exp(0.10 * r.nextGaussian());
    }
    MetricInput m = in.input();
    return new HostClasses.Input(MetricInput.paired(m.metric(), m.unit(), m.better(), true,
        m.baseline(), cand, m.hosts(), m.baselineFirst()), in.classOfPair());
  }

  /**
   * Seeded A/A simulation: two classes of 8 pairs each, three gating metrics, 3% boot noise and a
   * per-class host offset. The share of experiments with any improved/regressed row (class or
   * pooled) stays within alpha.
   */
  @Test
  void familyWiseFalsePositiveRateOfAnAaExperimentWithTwoClassesStaysWithinAlpha() {
    SplittableRandom r = new SplittableRandom(20261130L);
    int experiments = 400;
    int falsePositives = 0;
    for (int e = 0; e < experiments; e++) {
      List<HostClasses.Input> inputs = new ArrayList<>();
      for (String metric : List.of("metadata_stat", "negative_lookup", "create_delete")) {
        inputs.add(aa(metric, r));
      }
      boolean any = HostClasses.compare(inputs, POLICY, r.nextLong()).stream()
          .flatMap(List::stream).anyMatch(Comparison::decisive);
      falsePositives += any ? 1 : 0;
    }
    assertThat(falsePositives / (double) experiments).isLessThanOrEqualTo(POLICY.alpha());
  }

  private static HostClasses.Input aa(String metric, SplittableRandom r) {
    int pairs = 16;
    double[] base = new double[pairs];
    double[] cand = new double[pairs];
    String[] classes = new String[pairs];
    String[] hosts = new String[pairs];
    double offsetB = 1.5;
    for (int i = 0; i < pairs; i++) {
      boolean a = i < pairs / 2;
      double level = 1000 * (a ? 1 : offsetB) * Math.exp(0.03 * r.nextGaussian());
      base[i] = level * Math.exp(0.03 * r.nextGaussian());
      cand[i] = level * Math.exp(0.03 * r.nextGaussian());
      classes[i] = a ? "qemu/kvm" : "vz/hvf";
      hosts[i] = (a ? "a" : "b") + (i % 2);
    }
    return new HostClasses.Input(MetricInput.paired(metric, "ops/s", Direction.HIGHER, true, base,
        cand, hosts, null), classes);
  }
}
