package dev.abfleet.cli.noise;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.Policy;

/** Finished A/A experiments built by hand, with values whose noise is worked out in the tests. */
final class AaExperimentsFixture {
  private AaExperimentsFixture() {}

  /**
   * Two pairs on qemu/tcg; per-boot medians of metadata_stat: pair 0 a=100, a2=110; pair 1 a=100,
   * a2=90. Each boot also has a warm-up iteration (1000, ignored) and measured iterations whose
   * median is the value; a failed third pair is ignored.
   */
  static Experiment twoPairs(String verdict) {
    Experiment.Builder e = Experiment.newBuilder().setExperimentId("e-aa").setState("completed")
        .setSpec(ExperimentSpec.newBuilder()
            .addArms(Arm.newBuilder().setName("a").setRole("baseline"))
            .addArms(Arm.newBuilder().setName("a2").setRole("candidate"))
            .setPolicy(Policy.newBuilder().setAlpha(0.05).setNoiseThreshold(0.02)
                .addGatingMetrics("metadata_stat")));
    e.addBoots(boot("a", 0, "ok", 99, 100, 105));
    e.addBoots(boot("a2", 0, "ok", 110, 108, 111));
    e.addBoots(boot("a", 1, "ok", 100, 100, 100));
    e.addBoots(boot("a2", 1, "ok", 90, 80, 95));
    e.addBoots(boot("a", 2, "ok", 500));
    e.addBoots(boot("a2", 2, "boot_failed"));
    e.addComparisons(Comparison.newBuilder().setArm("a2").setMetric("metadata_stat").setGating(true)
        .setVerdict(verdict));
    e.addComparisons(Comparison.newBuilder().setArm("a2").setMetric("boot_time").setGating(false)
        .setVerdict("regressed"));
    return e.build();
  }

  static Boot boot(String arm, int pair, String status, double... values) {
    Boot.Builder b = Boot.newBuilder().setArm(arm).setPairIndex(pair).setStatus(status).setHostClass("qemu/tcg")
        .addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(1000).setWarmup(true));
    for (double v : values) {
      b.addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(v));
    }
    return b.build();
  }
}
