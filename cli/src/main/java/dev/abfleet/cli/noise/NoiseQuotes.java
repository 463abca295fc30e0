package dev.abfleet.cli.noise;

import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.controller.noise.NoiseMeasure;

import dev.abfleet.bench.calibrate.Wilson;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.NoiseCalibration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The noise records a report quotes: one per host class the experiment's boots ran on that has a
 * record. The pair counts are planned for the experiment's own gating family: its alpha split
 * over its gating metrics, twice its noise threshold as the change to be called
 * ({@link #mdeFor}), {@value #POWER} power ({@link MetricNoise#pairsFor}).
 */
public final class NoiseQuotes {
  /** Power the reports plan pair counts for. */
  public static final double POWER = 0.8;
  /** The change planned for when the experiment's policy has no noise threshold. */
  public static final double DEFAULT_MDE = 0.02;

  /**
   * The change the reports plan pair counts for: twice the noise threshold (a change of the
   * threshold itself is called improved or regressed at most about half the time, whatever the
   * pairs: its estimate falls on either side), {@link #DEFAULT_MDE} without a threshold.
   */
  public static double mdeFor(double threshold) {
    return threshold > 0 ? 2 * threshold : DEFAULT_MDE;
  }
  private static final double Z95 = 1.959963984540054;

  private NoiseQuotes() {}

  /** @throws dev.abfleet.config.Problem a record of one of the classes is unreadable */
  public static List<NoiseCalibration> of(Experiment e, NoiseSource store) {
    TreeSet<String> classes = new TreeSet<>();
    e.getBootsList().forEach(b -> classes.add(b.getHostClass().isBlank() ? NoiseMeasure.UNKNOWN : b.getHostClass()));
    var p = e.getSpec().getPolicy();
    double threshold = Math.max(0, p.getNoiseThreshold());
    double alpha = p.getAlpha() > 0 ? p.getAlpha() : dev.abfleet.stats.Policy.DEFAULT_ALPHA;
    int m = Math.max(1, p.getGatingMetricsCount());
    List<NoiseCalibration> out = new ArrayList<>();
    for (String cls : classes) {
      store.load(cls).ifPresent(r -> out.add(quote(r, threshold, alpha, m, POWER)));
    }
    return out;
  }

  /**
   * The record as a report shows it, pair counts planned for a change of {@link #mdeFor}
   * {@code threshold} to be called at {@code power}.
   */
  public static NoiseCalibration quote(NoiseRecord r, double threshold, double alpha, int gatingMetrics, double power) {
    double mde = mdeFor(threshold);
    double[] wilson = Wilson.interval(r.falsePositives(), r.experiments(), Z95);
    List<NoiseCalibration.Metric> metrics = r.metrics().stream().map(mn -> new NoiseCalibration.Metric(
        mn.metric(), mn.cv(), mn.pairedSd(), mn.pairs(),
        mn.pairsFor(mde, threshold, alpha, gatingMetrics, power))).toList();
    return new NoiseCalibration(r.hostClass(), r.experiments(), r.falsePositives(), wilson[0], wilson[1],
        r.date().toString(), mde, power, metrics);
  }
}
