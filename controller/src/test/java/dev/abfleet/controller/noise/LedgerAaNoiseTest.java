package dev.abfleet.controller.noise;

import dev.abfleet.stats.noise.NoiseRecord;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.controller.TestActorKits;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A {@code kind: aa} schedule's finished runs, as the Nightly actor hands them on: merged into the ledger. */
class LedgerAaNoiseTest {
  static ActorTestKit kit;

  @BeforeAll
  static void start() {
    kit = TestActorKits.inMemoryJournal();
  }

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

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
  void anAaScheduleMergesEachRunsNoiseIntoTheClassRecord() {
    var ledger = kit.spawn(NoiseLedger.create(0));
    LedgerAaNoise noise = new LedgerAaNoise(kit.system(), ledger, Duration.ofSeconds(5));

    noise.record("noise", aa("noise-20261202T0400Z", false), Instant.parse("2026-12-02T04:00:00Z"));
    noise.record("noise", aa("noise-20261203T0400Z", true), Instant.parse("2026-12-03T04:00:00Z"));

    TestProbe<NoiseLedger.Records> probe = kit.createTestProbe();
    ledger.tell(new NoiseLedger.ListNoise(probe.ref()));
    NoiseRecord r = probe.receiveMessage().records().get(0);
    assertThat(r.experiments()).isEqualTo(2);
    assertThat(r.falsePositives()).isOne();
    assertThat(r.date()).isEqualTo(LocalDate.of(2026, 12, 3));
    assertThat(r.metric("metadata_stat").pairs()).isEqualTo(4);
    // d = ln 1.1, ln 0.9 each night: python3 statistics.stdev([ln 1.1, ln 0.9] * 2).
    assertThat(r.metric("metadata_stat").pairedSd()).isCloseTo(0.11585728004354241,
        org.assertj.core.data.Offset.offset(1e-12));
  }
}
