package dev.abfleet.bench.calibrate;

import java.util.SplittableRandom;

/**
 * Noise that looks like a real fleet, on the log scale of ops/s. Every scenario has lognormal
 * boot noise (3% per metric plus 2% shared by the metrics of a boot) and a pair-level factor
 * (4%, both boots of a pair: the host's state at that moment). Scenarios add one difficulty
 * each. The two slow-boot scenarios are issue 25's instead: 5% noise per boot and metric, no
 * shared or pair part, a share of boots slower on every metric. The candidate differs from the
 * baseline only on metric 0, by the factor 1 + effect.
 */
public enum Scenario {
  /** Lognormal boot noise only. */
  LOGNORMAL("lognormal", "lognormal boot noise (3% per metric, 2% shared, 4% per pair)"),
  /** A slow drift over the run: +15% from first to last pair, both arms alike. */
  DRIFT("drift", "plus a slow drift of +15% over the run"),
  /** 5% of boots are slow: 1.2 to 1.5 times slower on every metric. */
  OUTLIERS("outliers", "plus slow-boot outliers: 5% of boots 1.2-1.5x slower"),
  /** Four hosts with offsets of sd 10% and noise from 2% to 6%; pairs rotate over them. */
  HOSTS("hosts", "plus 4 hosts with offsets (sd 10%) and noise 2-6%"),
  /** 30% of boots take a slow path, 12% lower on every metric. */
  BIMODAL("bimodal", "plus bimodal boots: 30% take a 12% slower path"),
  /**
   * Issue 25's small-sample case: 5% lognormal noise per boot and metric, no pair factor, 6% of
   * boots 40% slower on every metric (a TCG guest or a busy shared host).
   */
  SLOWBOOT("slowboot", "5% boot noise, no pair factor; 6% of boots 40% slower"),
  /** The same noise with 30% of boots 15% slower. */
  SLOWBOOT30("slowboot30", "5% boot noise, no pair factor; 30% of boots 15% slower");

  public static final double BOOT_SD = 0.03;
  public static final double SHARED_SD = 0.02;
  public static final double PAIR_SD = 0.04;
  /** Boot noise of the slow-boot scenarios, per metric, with no shared or pair part. */
  public static final double SLOWBOOT_SD = 0.05;

  public final String label;
  public final String description;

  Scenario(String label, String description) {
    this.label = label;
    this.description = description;
  }

  public SimExperiment generate(SplittableRandom rng, int pairs, int metrics, double effect) {
    double[][] a = new double[metrics][pairs];
    double[][] b = new double[metrics][pairs];
    String[] hosts = new String[pairs];
    boolean[] first = new boolean[pairs];
    int hostCount = this == HOSTS ? 4 : 1;
    double[] hostOffset = new double[hostCount];
    double[] hostSd = new double[hostCount];
    for (int h = 0; h < hostCount; h++) {
      hostOffset[h] = this == HOSTS ? 0.10 * rng.nextGaussian() : 0;
      hostSd[h] = this == HOSTS ? 0.02 + 0.04 * h / 3.0 : slow() ? SLOWBOOT_SD : BOOT_SD;
    }
    double[] out = new double[metrics];
    for (int i = 0; i < pairs; i++) {
      int h = i % hostCount;
      hosts[i] = "h" + h;
      first[i] = rng.nextBoolean();
      double common = slow() ? 0 : hostOffset[h] + PAIR_SD * rng.nextGaussian();
      if (this == DRIFT) {
        common += 0.15 * i / Math.max(1, pairs - 1);
      }
      boot(rng, common, hostSd[h], out);
      for (int m = 0; m < metrics; m++) {
        a[m][i] = 1000 * Math.exp(out[m]);
      }
      boot(rng, common, hostSd[h], out);
      for (int m = 0; m < metrics; m++) {
        b[m][i] = 1000 * Math.exp(out[m]) * (m == 0 ? 1 + effect : 1);
      }
    }
    return new SimExperiment(a, b, hosts, first);
  }

  private boolean slow() {
    return this == SLOWBOOT || this == SLOWBOOT30;
  }

  /** Log values of one boot's metrics around {@code common}. */
  private void boot(SplittableRandom rng, double common, double sd, double[] out) {
    if (slow()) {
      // "40% slower": the boot takes 1.4 times as long, so ops/s divide by 1.4
      double slowdown = this == SLOWBOOT ? (rng.nextDouble() < 0.06 ? Math.log(1.4) : 0)
          : (rng.nextDouble() < 0.30 ? Math.log(1.15) : 0);
      for (int m = 0; m < out.length; m++) {
        out[m] = common - slowdown + sd * rng.nextGaussian();
      }
      return;
    }
    double shared = SHARED_SD * rng.nextGaussian();
    if (this == OUTLIERS && rng.nextDouble() < 0.05) {
      shared -= Math.log1p(0.2 + 0.3 * rng.nextDouble());
    }
    if (this == BIMODAL && rng.nextDouble() < 0.30) {
      shared -= 0.12;
    }
    for (int m = 0; m < out.length; m++) {
      out[m] = common + shared + sd * rng.nextGaussian();
    }
  }
}
