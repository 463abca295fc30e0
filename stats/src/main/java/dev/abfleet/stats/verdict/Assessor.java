package dev.abfleet.stats.verdict;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.BootFailures;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.HostClasses;
import dev.abfleet.stats.MetricInput;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns boots into verdicts, the one place that does: the experiment entity (live, after each
 * completed pair) and {@code abfleet analyze} (offline) both call it.
 *
 * <p>One value per boot and metric (the median of its measured iterations, warm-ups dropped;
 * NaN for a failed boot). Paired when every boot carries host and pair: each compared arm's boot
 * is matched with the baseline's of the same (host, pair), pairs ordered by pair then host;
 * within a pair, the boot with the lower order booted first. Pairs whose boots ran on different
 * accelerators are never compared. Each pair's host class is its baseline boot's (else the
 * candidate's); with several classes every metric gets a pooled row and one row per class
 * ({@link HostClasses}), and one Holm family spans compared arms x gating metrics x classes.
 * Boot failure rates are compared per candidate (Fisher), and a candidate that fails to boot
 * significantly more often makes the experiment regressed.
 */
public final class Assessor {
  private Assessor() {}

  /** The verdicts of these boots under this design; {@link Assessment#EMPTY} for no boots. */
  public static Assessment assess(VerdictDesign design, List<? extends VerdictBoot> boots) {
    Inputs in = Inputs.of(design, boots);
    if (in.inputs.isEmpty()) {
      return Assessment.EMPTY;
    }
    List<List<Comparison>> compared = HostClasses.compare(in.inputs, design.policy(), design.seed());
    List<Row> rows = new ArrayList<>();
    Map<String, Comparison> ceilingRows = new LinkedHashMap<>();
    for (int i = 0; i < compared.size(); i++) {
      if (in.arms.get(i).equals(design.ceiling())) {
        compared.get(i).forEach(c -> ceilingRows.put(c.metric() + "@" + c.hostClass(), c));
      }
    }
    for (int i = 0; i < compared.size(); i++) {
      String arm = in.arms.get(i);
      List<Comparison> forInput = compared.get(i);
      for (int r = 0; r < forInput.size(); r++) {
        Comparison c = r == 0 ? withWarnings(forInput.get(r), in.warnings.get(i)) : forInput.get(r);
        double of = arm.equals(design.ceiling()) ? 0
            : ofCeiling(c, ceilingRows.get(c.metric() + "@" + c.hostClass()));
        rows.add(new Row(arm, c, of));
      }
    }
    Map<String, Integer> classes = HostClasses.pairsPerClass(in.inputs);
    boolean byClass = rows.stream().anyMatch(r -> !r.comparison().hostClass().isEmpty());
    return new Assessment(in.paired, in.pairs, rows, in.bootFailures,
        byClass ? classes : Map.of(), Overall.of(rows, in.bootFailures));
  }

  /**
   * Whether a sequential experiment may stop now: the completed pairs reach one of the policy's
   * looks (with several host classes, the look the class with the fewest pairs reaches) and every
   * gating metric is decided in every class ({@link HostClasses#stopAt}). Always false for a
   * fixed design and at the last look (the pair budget, which the caller handles).
   */
  public static boolean stopEarly(VerdictDesign design, List<? extends VerdictBoot> boots) {
    List<Integer> looks = design.policy().looks();
    if (looks.isEmpty() || boots.isEmpty()) {
      return false;
    }
    Inputs in = Inputs.of(design, boots);
    int fewest = HostClasses.pairsPerClass(in.inputs).values().stream()
        .mapToInt(Integer::intValue).min().orElse(in.pairs);
    int look = looks.indexOf(fewest);
    if (look < 0 || look == looks.size() - 1) {
      return false;
    }
    return HostClasses.stopAt(look, in.inputs, design.policy(), design.seed());
  }

  /** Candidate center as a fraction of the ceiling's, direction-aware; 0 when not computable. */
  static double ofCeiling(Comparison candidate, Comparison ceiling) {
    if (ceiling == null) {
      return 0;
    }
    double ratio = candidate.better() == Direction.LOWER
        ? ceiling.candidateCenter() / candidate.candidateCenter()
        : candidate.candidateCenter() / ceiling.candidateCenter();
    return Double.isFinite(ratio) && ratio > 0 ? ratio : 0;
  }

  private static Comparison withWarnings(Comparison c, List<String> extra) {
    if (extra.isEmpty()) {
      return c;
    }
    List<String> warnings = new ArrayList<>(c.warnings());
    warnings.addAll(extra);
    return c.withJudgement(c.verdict(), c.pAdjusted(), c.reasons(), warnings);
  }

  /** Engine inputs: one per compared arm and metric, arms outer (one family). */
  private static final class Inputs {
    final List<HostClasses.Input> inputs = new ArrayList<>();
    final List<String> arms = new ArrayList<>();
    final List<List<String>> warnings = new ArrayList<>();
    final Map<String, BootFailureComparison> bootFailures = new LinkedHashMap<>();
    boolean paired;
    int pairs;

    static Inputs of(VerdictDesign design, List<? extends VerdictBoot> all) {
      Inputs in = new Inputs();
      List<VerdictBoot> boots = all.stream().filter(b -> !b.warmupBoot() && !b.rerun())
          .<VerdictBoot>map(b -> b).toList();
      in.paired = boots.stream().allMatch(b -> b.host() != null && b.pair() != null);
      Map<String, List<VerdictBoot>> byArm = new LinkedHashMap<>();
      boots.forEach(b -> byArm.computeIfAbsent(b.arm(), a -> new ArrayList<>()).add(b));
      List<? extends VerdictBoot> base = byArm.getOrDefault(design.baseline(), List.of());
      if (base.isEmpty()) {
        return in;
      }
      List<MetricFacts> metrics = MetricFacts.of(design, boots);
      for (String arm : design.compared()) {
        List<? extends VerdictBoot> other = byArm.getOrDefault(arm, List.of());
        List<VerdictBoot[]> pairs = in.paired ? match(base, other, design.maxPairs()) : List.of();
        if (in.paired) {
          in.pairs = Math.max(in.pairs, pairs.size());
        }
        boolean ceiling = arm.equals(design.ceiling());
        for (MetricFacts m : metrics) {
          List<String> warnings = new ArrayList<>(m.warnings);
          MetricInput input = in.paired ? paired(design, m, pairs, warnings)
              : unpaired(design, m, base, other);
          in.inputs.add(new HostClasses.Input(ceiling ? input.withGating(false) : input,
              in.paired ? classes(pairs) : null));
          in.arms.add(arm);
          in.warnings.add(warnings);
        }
        if (!ceiling) {
          in.bootFailures.put(arm, failures(pairs, in.paired, base, other, design));
        }
      }
      return in;
    }

    private static MetricInput paired(VerdictDesign design, MetricFacts m, List<VerdictBoot[]> pairs,
        List<String> warnings) {
      int n = pairs.size();
      double[] a = new double[n];
      double[] c = new double[n];
      String[] hosts = new String[n];
      boolean[] baselineFirst = new boolean[n];
      for (int i = 0; i < n; i++) {
        VerdictBoot b = pairs.get(i)[0];
        VerdictBoot o = pairs.get(i)[1];
        a[i] = BootValues.of(b, m.metric, m.unit);
        c[i] = BootValues.of(o, m.metric, m.unit);
        hosts[i] = b.host();
        baselineFirst[i] = b.order() < o.order();
        if (!b.accelerator().isEmpty() && !o.accelerator().isEmpty()
            && !b.accelerator().equals(o.accelerator())) {
          a[i] = Double.NaN;
          c[i] = Double.NaN;
          warnings.add("pair " + b.pair() + " not compared: baseline ran on " + b.accelerator()
              + ", " + o.arm() + " on " + o.accelerator());
        }
      }
      return MetricInput.paired(m.metric, m.unit, m.direction, design.gates(m.metric), a, c, hosts,
          baselineFirst);
    }

    private static MetricInput unpaired(VerdictDesign design, MetricFacts m, List<? extends VerdictBoot> base,
        List<? extends VerdictBoot> other) {
      return MetricInput.unpaired(m.metric, m.unit, m.direction, design.gates(m.metric),
          values(sorted(base, design.maxPairs()), m),
          values(sorted(other, design.maxPairs()), m));
    }

    /** Unpaired: one value per boot that has the metric or failed (NaN). */
    private static double[] values(List<? extends VerdictBoot> boots, MetricFacts m) {
      return boots.stream()
          .filter(b -> b.failed() || b.samples().stream()
              .anyMatch(s -> s.metric().equals(m.metric) && s.unit().equals(m.unit)))
          .mapToDouble(b -> BootValues.of(b, m.metric, m.unit)).toArray();
    }

    private static String[] classes(List<VerdictBoot[]> pairs) {
      if (pairs.stream().allMatch(p -> p[0].hostClass() == null && p[1].hostClass() == null)) {
        return null;
      }
      return pairs.stream().map(p -> p[0].hostClass() != null ? p[0].hostClass() : p[1].hostClass())
          .toArray(String[]::new);
    }

    private static BootFailureComparison failures(List<VerdictBoot[]> pairs, boolean paired,
        List<? extends VerdictBoot> base, List<? extends VerdictBoot> other, VerdictDesign design) {
      List<? extends VerdictBoot> a = paired ? pairs.stream().map(p -> p[0]).toList()
          : sorted(base, design.maxPairs());
      List<? extends VerdictBoot> c = paired ? pairs.stream().map(p -> p[1]).toList()
          : sorted(other, design.maxPairs());
      return BootFailures.compare(failed(a), a.size(), failed(c), c.size(),
          design.policy().alpha());
    }

    private static int failed(List<? extends VerdictBoot> boots) {
      return (int) boots.stream().filter(VerdictBoot::failed).count();
    }

    private static List<? extends VerdictBoot> sorted(List<? extends VerdictBoot> boots, Integer max) {
      List<? extends VerdictBoot> list = boots.stream()
          .sorted(Comparator.comparingLong(VerdictBoot::order)).toList();
      return max == null ? list : list.subList(0, Math.min(max, list.size()));
    }

    /** Baseline and other boot of each (host, pair) that has both, by pair, then host. */
    private static List<VerdictBoot[]> match(List<? extends VerdictBoot> base, List<? extends VerdictBoot> other,
        Integer max) {
      Map<String, VerdictBoot> byKey = new LinkedHashMap<>();
      for (VerdictBoot b : other) {
        byKey.putIfAbsent(b.host() + "\u0000" + b.pair(), b);
      }
      List<VerdictBoot[]> out = new ArrayList<>();
      for (VerdictBoot a : base) {
        VerdictBoot c = byKey.get(a.host() + "\u0000" + a.pair());
        if (c != null) {
          out.add(new VerdictBoot[] {a, c});
        }
      }
      out.sort(Comparator.<VerdictBoot[]>comparingInt(p -> p[0].pair())
          .thenComparing(p -> p[0].host()));
      return max != null && out.size() > max ? List.copyOf(out.subList(0, max)) : out;
    }
  }

  /**
   * A metric of the experiment, one per (name, unit): a name measured in two units (a Go
   * benchmark's ns/op and B/op) is two metrics. Its direction is the first one a sample says.
   */
  private record MetricFacts(String metric, String unit, Direction direction,
      List<String> warnings) {
    static List<MetricFacts> of(VerdictDesign design, List<? extends VerdictBoot> boots) {
      Map<String, List<String>> units = new LinkedHashMap<>();
      Map<String, String> better = new LinkedHashMap<>();
      for (VerdictBoot b : boots) {
        for (BootSample s : b.samples()) {
          List<String> seen = units.computeIfAbsent(s.metric(), k -> new ArrayList<>());
          if (!seen.contains(s.unit())) {
            seen.add(s.unit());
          }
          if (!s.better().isEmpty()) {
            better.putIfAbsent(s.metric() + "\u0000" + s.unit(), s.better());
          }
        }
      }
      List<String> names = design.metrics().isEmpty() ? List.copyOf(units.keySet())
          : design.metrics();
      List<MetricFacts> out = new ArrayList<>();
      for (String name : names) {
        for (String unit : units.getOrDefault(name, List.of(""))) {
          List<String> warnings = new ArrayList<>();
          Direction direction = Direction.HIGHER;
          String said = better.get(name + "\u0000" + unit);
          if (said != null) {
            try {
              direction = Direction.parse(said);
            } catch (IllegalArgumentException e) {
              warnings.add("metric " + name + ": unknown direction '" + said + "', assumed higher");
            }
          }
          out.add(new MetricFacts(name, unit, direction, warnings));
        }
      }
      return out;
    }
  }
}
