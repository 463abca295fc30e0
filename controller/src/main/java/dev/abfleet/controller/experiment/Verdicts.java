package dev.abfleet.controller.experiment;

import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.HostClasses;
import dev.abfleet.stats.MetricInput;
import dev.abfleet.stats.Verdict;
import dev.abfleet.stats.VerdictEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Turns completed pairs into verdict-engine input: one value per boot and metric (the median of
 * its measured iterations; NaN for a failed boot), never comparing different accelerators.
 *
 * <p>Each pair belongs to a host class ({@link HostClassKey}). When the pairs span several
 * classes, every candidate and metric gets a pooled row (empty host class) followed by one row
 * per class, judged by {@link HostClasses}: one Holm family over candidates x gating metrics x
 * classes, and a pooled verdict only when every class agrees. With one class the rows are the
 * ordinary ones.
 */
public final class Verdicts {
  private Verdicts() {}

  /**
   * Candidate arm -> comparisons per metric, in the benchmark's metric order; with several host
   * classes, each metric's pooled row then its class rows (classes sorted).
   *
   * @param seed the experiment's recorded seed: the host bootstrap (several hosts) is seeded
   *     from it, so the same journal always yields the same intervals
   */
  public static Map<String, List<Comparison>> compare(
      ExperimentSpec spec, Map<Integer, List<RunOutcome>> pairs, long seed) {
    Map<String, List<Comparison>> result = new LinkedHashMap<>();
    if (pairs.isEmpty()) {
      return result;
    }
    List<String> metrics = metricsOf(spec, pairs);
    List<List<String>> warnings = new ArrayList<>();
    List<HostClasses.Input> inputs = classed(spec, pairs, inputs(spec, pairs, metrics, warnings));
    List<List<Comparison>> compared =
        HostClasses.compare(inputs, spec.policy().statsPolicy(), seed);
    int i = 0;
    for (ArmSpec candidate : spec.compared()) {
      List<Comparison> forArm = new ArrayList<>();
      for (int m = 0; m < metrics.size(); m++, i++) {
        List<Comparison> rows = compared.get(i);
        forArm.add(addWarnings(rows.get(0), warnings.get(i)));
        forArm.addAll(rows.subList(1, rows.size()));
      }
      result.put(candidate.name(), List.copyOf(forArm));
    }
    return result;
  }

  /** The inputs with the host class of each pair. */
  private static List<HostClasses.Input> classed(ExperimentSpec spec,
      Map<Integer, List<RunOutcome>> pairs, List<MetricInput> inputs) {
    String[] classes = HostClassKey.ofPairs(pairs, spec.baseline().name());
    return inputs.stream().map(in -> new HostClasses.Input(in, classes)).toList();
  }

  /**
   * Whether a sequential experiment may stop now: the completed pairs reach one of the policy's
   * looks and the engine says every gating metric is decided (or one regressed). With several
   * host classes the look is the one the class with the fewest pairs reaches, and every gating
   * metric must be decided in every class ({@link HostClasses#stopAt}). Always false for a fixed
   * design; the last look is the pair budget, handled by the caller.
   */
  public static boolean stopEarly(ExperimentSpec spec, Map<Integer, List<RunOutcome>> pairs, long seed) {
    List<Integer> looks = spec.policy().looks();
    if (looks.isEmpty() || pairs.isEmpty()) {
      return false;
    }
    List<HostClasses.Input> inputs = classed(spec, pairs,
        inputs(spec, pairs, metricsOf(spec, pairs), new ArrayList<>()));
    int fewest = HostClasses.pairsPerClass(inputs).values().stream()
        .mapToInt(Integer::intValue).min().orElse(pairs.size());
    int look = looks.indexOf(fewest);
    if (look < 0 || look == looks.size() - 1) {
      return false;
    }
    return HostClasses.stopAt(look, inputs, spec.policy().statsPolicy(), seed);
  }

  /** One input per candidate and metric, candidates outer: one family for error control. */
  private static List<MetricInput> inputs(ExperimentSpec spec, Map<Integer, List<RunOutcome>> pairs,
      List<String> metrics, List<List<String>> warnings) {
    List<MetricInput> inputs = new ArrayList<>();
    for (ArmSpec candidate : spec.compared()) {
      boolean ceiling = candidate.role() == ArmSpec.Role.CEILING;
      for (String metric : metrics) {
        List<String> metricWarnings = new ArrayList<>();
        MetricInput in = input(spec, pairs, spec.baseline().name(), candidate.name(), metric, metricWarnings);
        // The ceiling is a reference point, never a gate.
        inputs.add(ceiling ? in.withGating(false) : in);
        warnings.add(metricWarnings);
      }
    }
    return inputs;
  }

  /**
   * Worst gating verdict: regressed, then inconclusive, then improved, then no_change; null when
   * there is nothing to decide yet. With host classes, the class rows decide (a regression on one
   * class is a regression); the pooled rows only summarise them.
   */
  public static Verdict overall(Map<String, List<Comparison>> comparisons) {
    boolean classes = comparisons.values().stream().flatMap(List::stream)
        .anyMatch(c -> !c.hostClass().isEmpty());
    List<Verdict> gating = comparisons.values().stream().flatMap(List::stream)
        .filter(c -> c.gating() && (!classes || !c.hostClass().isEmpty()))
        .map(Comparison::verdict).toList();
    for (Verdict v : List.of(Verdict.REGRESSED, Verdict.INCONCLUSIVE, Verdict.IMPROVED,
        Verdict.NO_CHANGE)) {
      if (gating.contains(v)) {
        return v;
      }
    }
    return null;
  }

  private static MetricInput input(ExperimentSpec spec, Map<Integer, List<RunOutcome>> pairs,
      String baseline, String candidate, String metric, List<String> warnings) {
    int n = pairs.size();
    double[] base = new double[n];
    double[] cand = new double[n];
    String[] hosts = new String[n];
    boolean[] baselineFirst = new boolean[n];
    String unit = "";
    String better = "higher";
    int i = 0;
    for (var entry : pairs.entrySet()) {
      RunOutcome b = find(entry.getValue(), baseline);
      RunOutcome c = find(entry.getValue(), candidate);
      base[i] = bootValue(b, metric);
      cand[i] = bootValue(c, metric);
      RunOutcome any = b != null ? b : c;
      hosts[i] = any == null ? "" : any.hostId();
      baselineFirst[i] = b != null && b.orderInPair() == 0;
      if (b != null && c != null && !b.accelerator().isEmpty() && !c.accelerator().isEmpty()
          && !b.accelerator().equals(c.accelerator())) {
        base[i] = Double.NaN;
        cand[i] = Double.NaN;
        warnings.add("pair " + entry.getKey() + " not compared: baseline ran on "
            + b.accelerator() + ", candidate on " + c.accelerator());
      }
      for (RunOutcome o : entry.getValue()) {
        for (Sample s : o.samples()) {
          if (s.metric().equals(metric) && unit.isEmpty()) {
            unit = Objects.requireNonNullElse(s.unit(), "");
            better = s.better() == null || s.better().isEmpty() ? "higher" : s.better();
          }
        }
      }
      i++;
    }
    Direction direction;
    try {
      direction = Direction.parse(better);
    } catch (IllegalArgumentException e) {
      direction = Direction.HIGHER;
      warnings.add("metric " + metric + ": unknown direction '" + better + "', assumed higher");
    }
    return MetricInput.paired(metric, unit, direction, spec.policy().gates(metric), base, cand,
        hosts, baselineFirst);
  }

  /** Median of the boot's measured (non-warm-up) iterations; NaN when the boot failed. */
  static double bootValue(RunOutcome boot, String metric) {
    if (boot == null || boot.status() != RunOutcome.Status.OK) {
      return Double.NaN;
    }
    double[] values = boot.samples().stream()
        .filter(s -> s.metric().equals(metric) && !s.warmup())
        .mapToDouble(Sample::value).toArray();
    return VerdictEngine.median(values);
  }

  private static RunOutcome find(List<RunOutcome> outcomes, String arm) {
    return outcomes.stream().filter(o -> o.arm().equals(arm)).findFirst().orElse(null);
  }

  private static List<String> metricsOf(ExperimentSpec spec, Map<Integer, List<RunOutcome>> pairs) {
    if (!spec.benchmark().metrics().isEmpty()) {
      return spec.benchmark().metrics();
    }
    Set<String> seen = new LinkedHashSet<>();
    pairs.values().forEach(p -> p.forEach(o -> o.samples().forEach(s -> seen.add(s.metric()))));
    return List.copyOf(seen);
  }

  private static Comparison addWarnings(Comparison c, List<String> extra) {
    if (extra.isEmpty()) {
      return c;
    }
    List<String> warnings = new ArrayList<>(c.warnings());
    warnings.addAll(extra);
    return c.withJudgement(c.verdict(), c.pAdjusted(), c.reasons(), warnings);
  }
}
