package dev.abfleet.cli.noise;

import dev.abfleet.cli.calibrate.Wilson;
import dev.abfleet.cli.plan.PowerPlan;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.NoiseCalibration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The noise records a report quotes: one per host class the experiment's boots ran on that has a
 * record. The pair counts are planned for the experiment's own gating family: its alpha split
 * over its gating metrics, its noise threshold as the change to detect (2% when it has none),
 * {@value #POWER} power.
 */
public final class NoiseQuotes {
  /** Power the reports plan pair counts for. */
  public static final double POWER = 0.8;
  /** The change planned for when the experiment's policy has no noise threshold. */
  public static final double DEFAULT_MDE = 0.02;
  private static final double Z95 = 1.959963984540054;

  private NoiseQuotes() {}

  /** @throws dev.abfleet.config.Problem a record of one of the classes is unreadable */
  public static List<NoiseCalibration> of(Experiment e, NoiseStore store) {
    TreeSet<String> classes = new TreeSet<>();
    e.getBootsList().forEach(b -> classes.add(b.getHostClass().isBlank() ? NoiseMeasure.UNKNOWN : b.getHostClass()));
    var p = e.getSpec().getPolicy();
    double mde = p.getNoiseThreshold() > 0 ? p.getNoiseThreshold() : DEFAULT_MDE;
    double alpha = p.getAlpha() > 0 ? p.getAlpha() : 0.05;
    int m = Math.max(1, p.getGatingMetricsCount());
    List<NoiseCalibration> out = new ArrayList<>();
    for (String cls : classes) {
      store.load(cls).ifPresent(r -> out.add(quote(r, mde, alpha, m, POWER)));
    }
    return out;
  }

  /** The record as a report shows it, pair counts planned for {@code mde} at {@code power}. */
  public static NoiseCalibration quote(NoiseRecord r, double mde, double alpha, int gatingMetrics, double power) {
    double[] wilson = Wilson.interval(r.falsePositives(), r.experiments(), Z95);
    List<NoiseCalibration.Metric> metrics = r.metrics().stream().map(mn -> new NoiseCalibration.Metric(
        mn.metric(), mn.cv(), mn.pairedSd(), mn.pairs(),
        PowerPlan.pairs(mn.pairedSd(), mde, alpha, gatingMetrics, power))).toList();
    return new NoiseCalibration(r.hostClass(), r.experiments(), r.falsePositives(), wilson[0], wilson[1],
        r.date().toString(), mde, power, metrics);
  }
}
