package dev.abfleet.cli.noise;

import dev.abfleet.report.noise.NoiseRecord;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code kind: aa} schedule's finished runs, as the controller hands them on: merged into the class's record. */
class NightlyNoiseTest {
  @TempDir
  Path home;

  /** Two pairs on qemu/tcg; the gating row of the second night regressed (a false positive). */
  private static Experiment aa(String id, boolean falsePositive) {
    Experiment.Builder e = Experiment.newBuilder().setExperimentId(id).setState("completed")
        .setSpec(ExperimentSpec.newBuilder()
            .addArms(Arm.newBuilder().setName("baseline").setRole("baseline"))
            .addArms(Arm.newBuilder().setName("candidate").setRole("candidate")))
        .addComparisons(Comparison.newBuilder().setArm("candidate").setMetric("metadata_stat").setGating(true)
            .setVerdict(falsePositive ? "regressed" : "no_change"));
    double[][] values = {{100, 110}, {100, 90}};
    for (int pair = 0; pair < 2; pair++) {
      e.addBoots(boot("baseline", pair, values[pair][0]));
      e.addBoots(boot("candidate", pair, values[pair][1]));
    }
    return e.build();
  }

  private static Boot boot(String arm, int pair, double v) {
    return Boot.newBuilder().setArm(arm).setPairIndex(pair).setStatus("ok").setHostClass("qemu/tcg")
        .addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(v)).build();
  }

  @Test
  void anAaScheduleMergesEachRunsNoiseIntoTheClassRecord() throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    NightlyNoise noise = new NightlyNoise(home, new PrintStream(log, true, StandardCharsets.UTF_8));

    noise.record("noise", aa("noise-20261202T0400Z", false), Instant.parse("2026-12-02T04:00:00Z"));
    noise.record("noise", aa("noise-20261203T0400Z", true), Instant.parse("2026-12-03T04:00:00Z"));

    NoiseRecord r = NoiseStore.inHome(home).load("qemu/tcg").orElseThrow();
    assertThat(r.experiments()).isEqualTo(2);
    assertThat(r.falsePositives()).isOne();
    assertThat(r.date()).isEqualTo(LocalDate.of(2026, 12, 3));
    assertThat(r.metric("metadata_stat").pairs()).isEqualTo(4);
    assertThat(log.toString(StandardCharsets.UTF_8)).contains("noise: A/A noise of host class qemu/tcg recorded in")
        .contains("(1/2 experiments with a false positive)");
  }
}
