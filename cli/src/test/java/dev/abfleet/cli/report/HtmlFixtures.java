package dev.abfleet.cli.report;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.MetricTelemetry;
import java.util.Map;

/**
 * Experiments for the HTML report's tests, built on {@link ReportGoldenTest}'s fixtures, and the
 * counts their charts must show, counted from the wire types (not from the report model).
 */
final class HtmlFixtures {
  /** An arm name a browser would run if it were not escaped: the console error fails the test. */
  static final String HOSTILE = "<script>console.error('not escaped')</script>";

  private HtmlFixtures() {}

  static Experiment singleArm() {
    return ReportGoldenTest.fuseCase();
  }

  static Experiment crossHost() {
    return ReportGoldenTest.crossHostCase();
  }

  /**
   * The FUSE case with a second candidate (named {@link #HOSTILE}) booted third in each pair,
   * and guest counters on every ok boot, so the telemetry table shows.
   */
  static Experiment multiArm() {
    Experiment.Builder e = singleArm().toBuilder();
    e.setSpec(e.getSpec().toBuilder().addArms(Arm.newBuilder().setName(HOSTILE).setRole("candidate")));
    e.addComparisons(ReportGoldenTest.cmp("metadata_stat", "ops/s", 31800, 33000, 0.037, 0.01, 0.06,
        0.0078, 0.0312, "improved", true).toBuilder().setArm(HOSTILE));
    e.addBoots(ReportGoldenTest.boot("e-0000f00d-p0-a2-x", HOSTILE, 0, 2, 33000, "ok"));
    e.addBoots(ReportGoldenTest.boot("e-0000f00d-p1-a2-x", HOSTILE, 1, 2, 32900, "ok"));
    for (int i = 0; i < e.getBootsCount(); i++) {
      Boot b = e.getBoots(i);
      if (b.getStatus().equals("ok")) {
        long res = b.getArm().equals("stock") ? 900 : 300;
        e.setBoots(i, b.toBuilder().addGuestCounters(MetricTelemetry.newBuilder()
            .setMetric("metadata_stat").setWork(100_000).setWorkUnit("ops")
            .putAllInterrupts(Map.of("RES", res)).setContextSwitches(5000).setInterruptsTotal(-1)));
      }
    }
    return e.build();
  }

  /** Ok boots (warm-up boots left out) of the class (empty = any) with a measured value. */
  static int bootsWithValue(Experiment e, String metric, String cls) {
    return (int) e.getBootsList().stream()
        .filter(b -> !b.getWarmup() && b.getStatus().equals("ok") && inClass(b, cls)
            && hasValue(b, metric))
        .count();
  }

  /** Pairs of the class where the baseline's and the arm's boots both have a value. */
  static int completePairs(Experiment e, String baseline, String arm, String metric, String cls) {
    return (int) e.getBootsList().stream()
        .filter(b -> b.getArm().equals(baseline) && !b.getWarmup() && b.getStatus().equals("ok")
            && inClass(b, cls) && hasValue(b, metric))
        .filter(b -> e.getBootsList().stream().anyMatch(o -> o.getArm().equals(arm)
            && o.getPairIndex() == b.getPairIndex() && o.getHostId().equals(b.getHostId())
            && o.getStatus().equals("ok") && hasValue(o, metric)))
        .count();
  }

  private static boolean inClass(Boot b, String cls) {
    return cls.isEmpty() || b.getHostClass().equals(cls);
  }

  private static boolean hasValue(Boot b, String metric) {
    return b.getSamplesList().stream()
        .anyMatch((MetricSample s) -> s.getMetric().equals(metric) && !s.getWarmup());
  }
}
