package dev.abfleet.bench.calibrate;

/**
 * One simulated paired experiment: per metric, per pair, the baseline and candidate boot value
 * (ops/s, higher is better). NaN never occurs.
 *
 * @param baseline [metric][pair]
 * @param candidate [metric][pair]
 * @param hosts host of each pair
 * @param baselineFirst boot order of each pair
 */
public record SimExperiment(double[][] baseline, double[][] candidate, String[] hosts,
    boolean[] baselineFirst) {

  int metrics() {
    return baseline.length;
  }

  int pairs() {
    return baseline[0].length;
  }
}
