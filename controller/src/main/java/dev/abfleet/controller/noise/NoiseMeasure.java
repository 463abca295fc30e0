package dev.abfleet.controller.noise;

import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.stats.noise.NoiseRecord;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The noise one completed A/A experiment measured, per host class: a boot's value of a metric is
 * the median of its measured iterations; the boot-to-boot noise is the CV of those medians over
 * every boot of both arms; the paired noise is the spread of d_i = ln(b_i) - ln(a_i) over the
 * pairs (the scale the verdict engine's paired test works on). The experiment is a false positive
 * of its class when any gating row of that class was called improved or regressed. Pure.
 */
public final class NoiseMeasure {
  /** Class of boots whose host class was not recorded. */
  public static final String UNKNOWN = "unknown";

  private NoiseMeasure() {}

  /** One record per host class that has at least one complete pair; empty for a failed experiment. */
  public static List<NoiseRecord> of(Experiment e, LocalDate date) {
    if (!e.getState().equals("completed")) {
      return List.of();
    }
    String baseline = e.getSpec().getArmsList().stream().filter(a -> a.getRole().equals("baseline"))
        .map(a -> a.getName()).findFirst().orElse("");
    Map<String, Map<Integer, Boot[]>> pairsByClass = new TreeMap<>();
    for (Boot b : e.getBootsList()) {
      if (!b.getStatus().equals("ok") || b.getWarmup() || b.getRerun()) {
        continue;
      }
      Boot[] pair = pairsByClass.computeIfAbsent(label(b), c -> new TreeMap<>())
          .computeIfAbsent(b.getPairIndex(), i -> new Boot[2]);
      pair[b.getArm().equals(baseline) ? 0 : 1] = b;
    }
    List<NoiseRecord> out = new ArrayList<>();
    for (var cls : pairsByClass.entrySet()) {
      List<Boot[]> complete = cls.getValue().values().stream().filter(p -> p[0] != null && p[1] != null).toList();
      if (complete.isEmpty()) {
        continue;
      }
      boolean fp = falsePositive(e, cls.getKey(), pairsByClass.size() > 1);
      out.add(new NoiseRecord(cls.getKey(), 1, fp ? 1 : 0, date, e.getSpec().getPolicy().getGatingMetricsList(),
          metrics(complete)));
    }
    return out;
  }

  private static String label(Boot b) {
    return b.getHostClass().isBlank() ? UNKNOWN : b.getHostClass();
  }

  /** With one class the rows carry no class; with several, the class's own rows (not the pooled one). */
  private static boolean falsePositive(Experiment e, String cls, boolean severalClasses) {
    for (Comparison c : e.getComparisonsList()) {
      boolean mine = severalClasses ? c.getHostClass().equals(cls) : true;
      if (mine && c.getGating() && (c.getVerdict().equals("improved") || c.getVerdict().equals("regressed"))) {
        return true;
      }
    }
    return false;
  }

  private static List<MetricNoise> metrics(List<Boot[]> pairs) {
    Map<String, List<Double>> medians = new LinkedHashMap<>();
    Map<String, List<Double>> diffs = new LinkedHashMap<>();
    for (Boot[] pair : pairs) {
      Map<String, Double> a = medians(pair[0]);
      Map<String, Double> b = medians(pair[1]);
      for (var m : a.entrySet()) {
        Double other = b.get(m.getKey());
        if (other == null) {
          continue;
        }
        medians.computeIfAbsent(m.getKey(), k -> new ArrayList<>()).addAll(List.of(m.getValue(), other));
        if (m.getValue() > 0 && other > 0) {
          diffs.computeIfAbsent(m.getKey(), k -> new ArrayList<>()).add(Math.log(other) - Math.log(m.getValue()));
        }
      }
    }
    List<MetricNoise> out = new ArrayList<>();
    medians.forEach((metric, values) -> out.add(MetricNoise.of(metric, Moments.of(array(values)),
        array(diffs.getOrDefault(metric, List.of())))));
    return out;
  }

  /** Median of each metric's measured (non-warm-up) iterations of one boot. */
  static Map<String, Double> medians(Boot b) {
    Map<String, List<Double>> values = new LinkedHashMap<>();
    for (MetricSample s : b.getSamplesList()) {
      if (!s.getWarmup() && Double.isFinite(s.getValue())) {
        values.computeIfAbsent(s.getMetric(), k -> new ArrayList<>()).add(s.getValue());
      }
    }
    Map<String, Double> out = new LinkedHashMap<>();
    values.forEach((metric, v) -> out.put(metric, median(array(v))));
    return out;
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  private static double[] array(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
