package dev.abfleet.worker.sim;

import java.util.regex.Pattern;

/**
 * How one metric behaves in the simulation. Noise is lognormal: a boot's centre is
 * {@code base * exp(bootSigma * Z)} (before host, arm, drift and outlier factors), each
 * iteration of the boot is the centre times {@code exp(iterationSigma * Z)}.
 *
 * @param name metric name as the guest protocol spells it, e.g. "metadata_stat"
 * @param base median value of a plain boot on an average host, in {@code unit}; &gt; 0
 * @param unit e.g. "ops/s" or "MiB/s"
 * @param better "higher" or "lower"
 * @param bootSigma boot-to-boot lognormal sigma, 0..2 (0.08 = about 8% spread)
 * @param iterationSigma within-boot lognormal sigma of one iteration, 0..2
 */
public record SimMetric(String name, double base, String unit, String better, double bootSigma, double iterationSigma) {

  private static final Pattern NAME = Pattern.compile("[a-z0-9_]+");

  /** @throws IllegalArgumentException naming the field (as the YAML model spells it) and the range */
  public SimMetric {
    String at = "metrics." + name;
    SimChecks.require(name != null && NAME.matcher(name).matches(),
        "metric name '" + name + "' must match [a-z0-9_]+");
    SimChecks.positive(at + ".base", base);
    SimChecks.require(unit != null && !unit.isBlank(), at + ".unit is empty; e.g. ops/s or MiB/s");
    SimChecks.require("higher".equals(better) || "lower".equals(better),
        at + ".better is '" + better + "'; expected higher or lower");
    SimChecks.sigma(at + ".boot_sigma", bootSigma);
    SimChecks.sigma(at + ".iteration_sigma", iterationSigma);
  }

  /** A higher-is-better metric in ops/s with typical noise. */
  public static SimMetric opsPerSecond(String name, double base, double bootSigma) {
    return new SimMetric(name, base, "ops/s", "higher", bootSigma, 0.02);
  }
}
