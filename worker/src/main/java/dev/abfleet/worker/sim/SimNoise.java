package dev.abfleet.worker.sim;

/**
 * Sources of variation besides the per-metric boot and iteration noise.
 *
 * @param hostSigma lognormal sigma of a host's fixed offset per metric (seeded from the host id)
 * @param driftAmplitude relative amplitude of a slow sinusoidal drift of every metric over the
 *     host's simulated time (0.02 = +-2%); each host has its own phase
 * @param driftPeriodS period of that drift in simulated seconds; &gt; 0
 * @param outlierRate probability that a whole boot runs slow (a noisy neighbour), 0..1
 * @param outlierFactor every metric of such a boot is multiplied by this; &gt; 0
 * @param bimodalRate probability, per boot and metric, that the metric lands in its second mode
 * @param bimodalFactor the second mode relative to the first; &gt; 0
 */
public record SimNoise(
    double hostSigma,
    double driftAmplitude,
    double driftPeriodS,
    double outlierRate,
    double outlierFactor,
    double bimodalRate,
    double bimodalFactor) {

  public SimNoise {
    SimChecks.sigma("host_sigma", hostSigma);
    SimChecks.require(Double.isFinite(driftAmplitude) && driftAmplitude >= 0 && driftAmplitude < 1,
        "drift.amplitude is " + driftAmplitude + "; expected a fraction from 0 to below 1");
    SimChecks.positive("drift.period_s", driftPeriodS);
    SimChecks.probability("outliers.rate", outlierRate);
    SimChecks.positive("outliers.factor", outlierFactor);
    SimChecks.probability("bimodal.rate", bimodalRate);
    SimChecks.positive("bimodal.factor", bimodalFactor);
  }

  /** Mild host offsets and drift, rare outliers, no second mode. */
  public static SimNoise defaults() {
    return new SimNoise(0.03, 0.02, 3600, 0.01, 0.7, 0.0, 0.85);
  }

  /** No variation at all beyond the per-metric sigmas (tests of arm effects). */
  public static SimNoise none() {
    return new SimNoise(0, 0, 3600, 0, 1, 0, 1);
  }
}
