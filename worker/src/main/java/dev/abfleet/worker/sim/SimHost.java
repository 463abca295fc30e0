package dev.abfleet.worker.sim;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What makes one simulated host differ from another, fixed by the model seed and the host id:
 * a lognormal offset per metric and the phase of its slow drift.
 *
 * @param hostId the host
 * @param offsets factor per metric
 * @param driftPhase radians
 */
record SimHost(String hostId, Map<String, Double> offsets, double driftPhase) {

  static SimHost of(SimModel model, String hostId) {
    SplittableRandom r = new SplittableRandom(SimSeeds.mix(model.seed(), "host", hostId));
    Map<String, Double> offsets = new LinkedHashMap<>();
    for (SimMetric m : model.metrics()) {
      offsets.put(m.name(), Math.exp(model.noise().hostSigma() * r.nextGaussian()));
    }
    return new SimHost(hostId, Map.copyOf(offsets), r.nextDouble() * 2 * Math.PI);
  }

  /** The drift factor of every metric after {@code clockMs} of simulated time on this host. */
  double drift(SimNoise noise, long clockMs) {
    double cycles = clockMs / 1000.0 / noise.driftPeriodS();
    return Math.exp(noise.driftAmplitude() * Math.sin(2 * Math.PI * cycles + driftPhase));
  }
}
