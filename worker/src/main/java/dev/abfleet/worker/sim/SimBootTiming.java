package dev.abfleet.worker.sim;

/**
 * How long a simulated boot takes, in simulated seconds. The kernel reaches the harness after
 * {@code medianS * exp(sigma * Z)}, times {@code slowFactor} for a slow boot (probability
 * {@code slowRate}); then the harness runs its iterations (the benchmark's iterations and
 * iteration length); then the guest powers off in {@code shutdownS}.
 *
 * @param medianS median kernel start to harness start, seconds; &gt; 0
 * @param sigma lognormal sigma of that time, 0..2
 * @param slowRate probability of a slow-boot outlier, 0..1
 * @param slowFactor how much longer a slow boot takes; &gt; 0
 * @param shutdownS harness done to VM exit, seconds; &gt;= 0
 */
public record SimBootTiming(double medianS, double sigma, double slowRate, double slowFactor, double shutdownS) {

  public SimBootTiming {
    SimChecks.positive("boot.median_s", medianS);
    SimChecks.sigma("boot.sigma", sigma);
    SimChecks.probability("boot.slow_rate", slowRate);
    SimChecks.positive("boot.slow_factor", slowFactor);
    SimChecks.require(Double.isFinite(shutdownS) && shutdownS >= 0,
        "boot.shutdown_s is " + shutdownS + "; expected a number >= 0");
  }

  /** About what a Debian cloud kernel takes to a busybox init under TCG (HOST-FACTS.md). */
  public static SimBootTiming defaults() {
    return new SimBootTiming(2.5, 0.15, 0.01, 4.0, 0.3);
  }
}
