package dev.abfleet.cli.analyze;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.BootFailures;
import dev.abfleet.stats.Direction;
import dev.abfleet.stats.Iterations;
import dev.abfleet.stats.MetricInput;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of one experiment turned into engine inputs: one value per boot and metric
 * (warm-up iterations dropped, median of the rest), paired by (host, pair) when every line
 * has both, otherwise two independent samples per arm. Pairs are ordered by pair number, then
 * host; within a pair the arm whose line came first booted first.
 */
final class ExperimentData {
  /** A metric of the experiment; one per (metric, unit). */
  record MetricKey(String metric, String unit) {}

  /**
   * @param arms candidate arm of each input, parallel to {@code inputs}
   * @param bootFailures one per candidate arm, in arm order
   * @param classes host class of each pair per input (the baseline boot's {@code host_class}),
   *     parallel to {@code inputs}; null entries when unpaired or no line has a host_class
   */
  record Built(String experiment, String baseline, List<String> candidates, boolean paired,
      int pairs, List<MetricInput> inputs, List<String> arms,
      Map<String, BootFailureComparison> bootFailures, List<String[]> classes) {}

  private static final class Boot {
    String host;
    Integer pair;
    String hostClass;
    long order = Long.MAX_VALUE;
    boolean failed;
    final Map<MetricKey, List<double[]>> values = new LinkedHashMap<>(); // {value, warmup}
  }

  private ExperimentData() {}

  /** Samples grouped by experiment, experiments in order of first appearance. */
  static Map<String, List<Sample>> byExperiment(List<Sample> samples) {
    Map<String, List<Sample>> out = new LinkedHashMap<>();
    for (Sample s : samples) {
      out.computeIfAbsent(s.experiment(), e -> new ArrayList<>()).add(s);
    }
    return out;
  }

  /**
   * @param baselineArm the baseline, or null for the first arm seen
   * @param maxPairs use only the first N pairs (or boots per arm when unpaired); null = all
   * @throws IllegalArgumentException for an experiment that cannot be analysed (message
   *     names the experiment and the fix)
   */
  static Built build(String experiment, List<Sample> samples, String baselineArm,
      Integer maxPairs, double alpha) {
    Map<String, Map<String, Boot>> arms = new LinkedHashMap<>();
    Map<MetricKey, Direction> metrics = new LinkedHashMap<>();
    boolean paired = true;
    boolean classed = false;
    for (Sample s : samples) {
      Boot b = arms.computeIfAbsent(s.arm(), a -> new LinkedHashMap<>())
          .computeIfAbsent(s.boot(), id -> new Boot());
      b.order = Math.min(b.order, s.order());
      b.host = b.host == null ? s.host() : b.host;
      b.pair = b.pair == null ? s.pair() : b.pair;
      b.hostClass = b.hostClass == null ? s.hostClass() : b.hostClass;
      classed |= s.hostClass() != null;
      paired &= s.host() != null && s.pair() != null;
      if (s.failed()) {
        b.failed = true;
        continue;
      }
      MetricKey key = new MetricKey(s.metric(), s.unit());
      Direction better = s.better() == null ? null : Direction.parse(s.better());
      metrics.merge(key, better == null ? Direction.HIGHER : better, (old, neu) -> old);
      b.values.computeIfAbsent(key, k -> new ArrayList<>())
          .add(new double[] {s.value(), s.warmup() ? 1 : 0});
    }
    List<String> armNames = new ArrayList<>(arms.keySet());
    String baseline = baselineArm == null ? armNames.get(0) : baselineArm;
    if (!arms.containsKey(baseline)) {
      throw new IllegalArgumentException("experiment " + experiment + ": no arm '" + baseline
          + "'; its arms are " + String.join(", ", armNames) + " (see --baseline)");
    }
    List<String> candidates = armNames.stream().filter(a -> !a.equals(baseline)).toList();
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("experiment " + experiment + ": only arm '" + baseline
          + "' has samples; a comparison needs a baseline and at least one candidate");
    }
    List<MetricInput> inputs = new ArrayList<>();
    List<String> inputArms = new ArrayList<>();
    List<String[]> classes = new ArrayList<>();
    Map<String, BootFailureComparison> failures = new LinkedHashMap<>();
    int pairs = 0;
    for (String cand : candidates) {
      Side base = paired ? null : side(arms.get(baseline), maxPairs);
      Side other = paired ? null : side(arms.get(cand), maxPairs);
      List<Boot[]> matched = paired ? match(arms.get(baseline), arms.get(cand), maxPairs) : null;
      if (paired) {
        pairs = Math.max(pairs, matched.size());
        base = new Side(matched.stream().map(p -> p[0]).toList());
        other = new Side(matched.stream().map(p -> p[1]).toList());
      }
      for (Map.Entry<MetricKey, Direction> m : metrics.entrySet()) {
        MetricKey key = m.getKey();
        double[] a = base.values(key, paired);
        double[] c = other.values(key, paired);
        if (paired) {
          String[] hosts = matched.stream().map(p -> p[0].host).toArray(String[]::new);
          boolean[] first = new boolean[matched.size()];
          for (int i = 0; i < first.length; i++) {
            first[i] = matched.get(i)[0].order < matched.get(i)[1].order;
          }
          inputs.add(MetricInput.paired(key.metric(), key.unit(), m.getValue(), true, a, c,
              hosts, first));
          classes.add(classed ? matched.stream()
              .map(p -> p[0].hostClass != null ? p[0].hostClass : p[1].hostClass)
              .toArray(String[]::new) : null);
        } else {
          inputs.add(MetricInput.unpaired(key.metric(), key.unit(), m.getValue(), true, a, c));
          classes.add(null);
        }
        inputArms.add(cand);
      }
      failures.put(cand, BootFailures.compare(base.failed(), base.boots.size(), other.failed(),
          other.boots.size(), alpha));
    }
    return new Built(experiment, baseline, candidates, paired, pairs, inputs, inputArms,
        failures, classes);
  }

  /** The boots of one arm in the order used. */
  private record Side(List<Boot> boots) {
    int failed() {
      return (int) boots.stream().filter(b -> b.failed).count();
    }

    /** Paired: one value per boot, NaN when missing. Unpaired: NaN only for failed boots. */
    double[] values(MetricKey key, boolean paired) {
      List<Double> out = new ArrayList<>(boots.size());
      for (Boot b : boots) {
        List<double[]> it = b.values.get(key);
        if (b.failed || it == null) {
          if (paired || b.failed) {
            out.add(Double.NaN);
          }
          continue;
        }
        double[] v = new double[it.size()];
        boolean[] warm = new boolean[it.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = it.get(i)[0];
          warm[i] = it.get(i)[1] != 0;
        }
        out.add(Iterations.collapse(v, warm).value());
      }
      return out.stream().mapToDouble(Double::doubleValue).toArray();
    }
  }

  private static Side side(Map<String, Boot> boots, Integer maxPairs) {
    List<Boot> list = boots.values().stream()
        .sorted(Comparator.comparingLong(b -> b.order)).toList();
    return new Side(maxPairs == null ? list : list.subList(0, Math.min(maxPairs, list.size())));
  }

  /** Baseline and candidate boot of each (host, pair) that has both, ordered by pair, host. */
  private static List<Boot[]> match(Map<String, Boot> base, Map<String, Boot> cand,
      Integer maxPairs) {
    Map<String, Boot> byKey = new LinkedHashMap<>();
    for (Boot b : cand.values()) {
      byKey.putIfAbsent(b.host + "\u0000" + b.pair, b);
    }
    List<Boot[]> out = new ArrayList<>();
    for (Boot a : base.values()) {
      Boot c = byKey.get(a.host + "\u0000" + a.pair);
      if (c != null) {
        out.add(new Boot[] {a, c});
      }
    }
    out.sort(Comparator.<Boot[]>comparingInt(p -> p[0].pair)
        .thenComparing(p -> p[0].host, Comparator.nullsFirst(Comparator.naturalOrder())));
    if (maxPairs != null && out.size() > maxPairs) {
      return out.subList(0, maxPairs);
    }
    return out;
  }
}
