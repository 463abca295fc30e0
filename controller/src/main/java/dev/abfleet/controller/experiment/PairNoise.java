package dev.abfleet.controller.experiment;

import dev.abfleet.stats.VerdictEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a finished experiment says about each host's noise: for every completed pair, how far
 * its paired log-ratios lie from the experiment's typical ones. The experiment's effect is the
 * same on every host, so taking out the median log-ratio leaves what an A/A pair would show.
 */
public final class PairNoise {
  /** Pairs with a usable log-ratio needed before the median stands for the effect. */
  static final int MIN_PAIRS = 4;

  private PairNoise() {}

  /**
   * Host id -> one value per completed pair on it, in pair order: the median over the metrics of
   * |d - median(d)|, d = ln(candidate / baseline) for the first compared arm. Empty when the
   * experiment has fewer than {@link #MIN_PAIRS} usable pairs.
   */
  public static Map<String, double[]> residualsByHost(
      ExperimentSpec spec, Map<Integer, List<RunOutcome>> pairs) {
    if (spec.compared().isEmpty() || pairs.size() < MIN_PAIRS) {
      return Map.of();
    }
    String baseline = spec.baseline().name();
    String candidate = spec.compared().get(0).name();
    List<Integer> order = pairs.keySet().stream().sorted().toList();
    List<String> metrics = new ArrayList<>(spec.benchmark().metrics());
    if (metrics.isEmpty()) {
      pairs.values().forEach(p -> p.forEach(o -> o.samples().forEach(s -> {
        if (!metrics.contains(s.metric())) {
          metrics.add(s.metric());
        }
      })));
    }
    double[][] residual = new double[order.size()][metrics.size()];
    for (int m = 0; m < metrics.size(); m++) {
      double[] d = new double[order.size()];
      for (int i = 0; i < order.size(); i++) {
        List<RunOutcome> pair = pairs.get(order.get(i));
        d[i] = Math.log(ReportInputs.bootValue(find(pair, candidate), metrics.get(m))
            / ReportInputs.bootValue(find(pair, baseline), metrics.get(m)));
      }
      double[] usable = Arrays.stream(d).filter(Double::isFinite).toArray();
      double center = usable.length >= MIN_PAIRS ? VerdictEngine.median(usable) : Double.NaN;
      for (int i = 0; i < order.size(); i++) {
        residual[i][m] = Math.abs(d[i] - center);
      }
    }
    Map<String, List<Double>> byHost = new LinkedHashMap<>();
    for (int i = 0; i < order.size(); i++) {
      double[] finite = Arrays.stream(residual[i]).filter(Double::isFinite).toArray();
      RunOutcome any = pairs.get(order.get(i)).get(0);
      if (finite.length > 0) {
        byHost.computeIfAbsent(any.hostId(), h -> new ArrayList<>()).add(VerdictEngine.median(finite));
      }
    }
    Map<String, double[]> out = new LinkedHashMap<>();
    byHost.forEach((host, values) -> out.put(host, values.stream().mapToDouble(Double::doubleValue).toArray()));
    return out;
  }

  private static RunOutcome find(List<RunOutcome> pair, String arm) {
    return pair.stream().filter(o -> o.arm().equals(arm)).findFirst().orElse(null);
  }
}
