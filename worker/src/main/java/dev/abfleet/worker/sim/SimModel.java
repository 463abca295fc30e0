package dev.abfleet.worker.sim;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The performance model of the {@code sim} hypervisor: SIMULATED numbers for scale tests and
 * capacity planning, never a measurement. Load one with {@link SimModelYaml} or start from
 * {@link #defaults()}.
 *
 * <p>Per-arm effects are not part of the model: they travel with the experiment, as tokens in
 * the arm's kernel command line ({@link SimTokens}), so a submitted spec says what it simulates.
 *
 * @param seed base of every random draw; a host's draws are seeded from it and the host id
 * @param timeScale real seconds a boot lasts per simulated second: 1.0 = real time, 0.01 = 100x
 *     faster, 0 = no waiting at all; 0..1000
 * @param metrics the metrics the simulated harness can report, in report order; names unique
 * @param boot boot and shutdown times
 * @param noise host offsets, drift, outliers, bimodality
 * @param failRate probability that a boot fails before the harness starts (a kernel panic),
 *     unless the arm's {@code sim.fail_rate} token says otherwise; 0..1
 */
public record SimModel(
    long seed, double timeScale, List<SimMetric> metrics, SimBootTiming boot, SimNoise noise, double failRate) {

  /**
   * The fleetbench metrics at the levels seen on a TCG guest (HOST-FACTS.md); the tree metrics
   * come last, so a seeded boot draws the first four exactly as before they existed.
   */
  public static final List<SimMetric> FLEETBENCH = List.of(
      SimMetric.opsPerSecond("metadata_stat", 80_000, 0.08),
      SimMetric.opsPerSecond("negative_lookup", 60_000, 0.06),
      SimMetric.opsPerSecond("create_delete", 8_000, 0.05),
      new SimMetric("seq_read", 1_400, "MiB/s", "higher", 0.03, 0.02),
      SimMetric.opsPerSecond("find_recursive", 40_000, 0.06),
      SimMetric.opsPerSecond("rm_rf", 5_000, 0.06));

  /** @throws IllegalArgumentException naming the offending field and its valid range */
  public SimModel {
    SimChecks.require(Double.isFinite(timeScale) && timeScale >= 0 && timeScale <= 1000,
        "time_scale is " + timeScale + "; expected 0 (no sleeping) to 1000 (1.0 = real time)");
    SimChecks.require(metrics != null && !metrics.isEmpty(), "metrics is empty; define at least one metric");
    metrics = List.copyOf(metrics);
    Set<String> names = new HashSet<>();
    for (SimMetric m : metrics) {
      SimChecks.require(names.add(m.name()), "metric '" + m.name() + "' is defined twice; keep one");
    }
    SimChecks.require(boot != null, "boot is missing");
    SimChecks.require(noise != null, "noise is missing");
    SimChecks.probability("fail_rate", failRate);
  }

  /** Fleetbench metrics, default timing and noise, seed 1, real time, no failures. */
  public static SimModel defaults() {
    return new SimModel(1, 1.0, FLEETBENCH, SimBootTiming.defaults(), SimNoise.defaults(), 0.0);
  }

  public SimModel withTimeScale(double scale) {
    return new SimModel(seed, scale, metrics, boot, noise, failRate);
  }

  public SimModel withSeed(long newSeed) {
    return new SimModel(newSeed, timeScale, metrics, boot, noise, failRate);
  }

  public SimModel withNoise(SimNoise newNoise) {
    return new SimModel(seed, timeScale, metrics, boot, newNoise, failRate);
  }

  public SimModel withFailRate(double rate) {
    return new SimModel(seed, timeScale, metrics, boot, noise, rate);
  }

  public Optional<SimMetric> metric(String name) {
    return metrics.stream().filter(m -> m.name().equals(name)).findFirst();
  }

  public List<String> metricNames() {
    return metrics.stream().map(SimMetric::name).toList();
  }
}
