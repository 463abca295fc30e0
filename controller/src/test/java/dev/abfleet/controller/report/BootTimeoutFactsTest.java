package dev.abfleet.controller.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.BootSpec;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.report.JsonReport;
import dev.abfleet.report.TextReport;
import org.junit.jupiter.api.Test;

/** The report states the boot timeout rule the controller planned with, from the same boots. */
class BootTimeoutFactsTest {
  static Experiment.Builder experiment(int bootTimeoutS) {
    return Experiment.newBuilder().setExperimentId("e-1").setState("running").setPairsWanted(8)
        .setSpec(ExperimentSpec.newBuilder()
            .addArms(Arm.newBuilder().setName("base").setRole("baseline").setBoot(BootSpec.getDefaultInstance()))
            .addArms(Arm.newBuilder().setName("cand").setRole("candidate"))
            .setPolicy(Policy.newBuilder().setBootTimeoutS(bootTimeoutS)));
  }

  static Boot boot(String arm, int pair, long runMs, String status, boolean warmup) {
    return Boot.newBuilder().setRunId("r" + pair + arm + warmup).setArm(arm).setHostId("h1").setPairIndex(pair)
        .setStatus(status).setWarmup(warmup)
        .setTelemetry(RunTelemetry.newBuilder().setHypervisor("qemu").setRunMs(runMs)).build();
  }

  @Test
  void anAdaptiveRuleShowsEachArmsLimitFromItsCompletedBoots() {
    Experiment.Builder e = experiment(0);
    long[] base = {100_000, 110_000, 104_000};
    long[] cand = {200_000, 220_000, 210_000};
    for (int pair = 0; pair < 3; pair++) {
      e.addBoots(boot("base", pair, base[pair], "ok", false)).addBoots(boot("cand", pair, cand[pair], "ok", false));
    }
    // Not counted: a warm-up and a timed-out boot.
    e.addBoots(boot("base", 3, 900_000, "ok", true)).addBoots(boot("cand", 3, 1_000_000, "timeout", false));

    // base: median 104 s -> 312 s; cand: median 210 s -> 630 s.
    assertThat(TextReport.render(ProtoReports.of(e.build()))).contains("boot timeout: adaptive, last"
        + " base 312 s (3 x median 104 s of 3 boots), cand 630 s (3 x median 210 s of 3 boots)\n");
    assertThat(JsonReport.render(ProtoReports.of(e.build())))
        .contains("\"boot_timeout\" : {\n    \"rule\" : \"adaptive\",\n    \"last_s\" : 630,");
  }

  @Test
  void aTimeoutTheUserSetIsReportedAsFixed() {
    Experiment.Builder e = experiment(150).addBoots(boot("base", 0, 100_000, "ok", false));

    assertThat(TextReport.render(ProtoReports.of(e.build()))).contains("boot timeout: fixed 150 s\n");
    assertThat(JsonReport.render(ProtoReports.of(e.build()))).contains("\"rule\" : \"fixed\",\n    \"last_s\" : 150,");
  }

  @Test
  void aTextReportWithoutBootsHasNoTimeoutLine() {
    assertThat(TextReport.render(ProtoReports.of(experiment(0).build()))).doesNotContain("boot timeout");
  }
}
