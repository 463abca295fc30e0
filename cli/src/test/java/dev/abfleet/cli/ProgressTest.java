package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.report.ExperimentFacts;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {
  private static Boot boot(String run, String status) {
    Boot.Builder b = Boot.newBuilder().setRunId(run).setArm("cand").setHostId("h1").setPairIndex(3).setOrderInPair(1)
        .setStatus(status)
        .setTelemetry(RunTelemetry.newBuilder().setHypervisor("qemu").setAccelerator("tcg").setBootMs(2300).setRunMs(7900));
    for (double v : new double[] {40000, 50300, 50100, 60000}) {
      b.addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(v));
    }
    b.addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(1).setWarmup(true));
    return b.build();
  }

  @Test
  void bootLineShowsPlacementTimingAndMedianOfMeasuredIterations() {
    String line = Progress.line(Experiment.getDefaultInstance(), boot("r1", "ok"));
    assertThat(line).contains("pair 3.1").contains("cand").contains("h1").contains("qemu/tcg")
        .contains("boot 2.3s run 7.9s").contains("metadata_stat 50.2k");
  }

  @Test
  void failedBootShowsItsStatusAndMessage() {
    Boot failed = boot("r2", "boot_failed").toBuilder().setMessage("kernel did not reach the harness").build();
    assertThat(Progress.line(Experiment.getDefaultInstance(), failed))
        .contains("BOOT_FAILED: kernel did not reach the harness").doesNotContain("metadata_stat");
  }

  @Test
  void eachBootIsPrintedOnceAndPairCountOnChange() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    Experiment e = Experiment.newBuilder().setState("running").setPairsWanted(8).addBoots(boot("r1", "ok")).build();
    p.onChange(e);
    p.onChange(e);
    p.onChange(e.toBuilder().setPairsDone(1).addBoots(boot("r2", "ok")).build());
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out.lines().filter(l -> l.contains("pair 3.1"))).hasSize(2);
    assertThat(out).contains("pairs 0/8").contains("pairs 1/8");
  }

  @Test
  void statusShowsPairsLookEtaAndTheGatingEstimates() {
    Experiment e = Experiment.newBuilder().setState("running").setPairsDone(12).setPairsWanted(20)
        .setEtaSeconds(130)
        .setSpec(ExperimentSpec.newBuilder().addArms(Arm.getDefaultInstance()).addArms(Arm.getDefaultInstance())
            .setPolicy(Policy.newBuilder().addLooks(10).addLooks(15).addLooks(20)))
        .addComparisons(Comparison.newBuilder().setMetric("metadata_stat").setGating(true).setNPairs(12)
            .setChange(0.581).setCiLow(0.502).setCiHigh(0.66).setVerdict("improved"))
        .addComparisons(Comparison.newBuilder().setMetric("boot_ms").setGating(false).setNPairs(12)
            .setChange(0.01))
        .build();

    assertThat(Progress.status(e)).isEqualTo("  status: pairs 12/20, look 2 of 3 at 15 pairs, ETA 2m 10s;"
        + " metadata_stat +58.1% [+50.2%, +66.0%] improved");
  }

  @Test
  void crossHostStatusNamesTheClassOfEachEstimate() {
    Comparison.Builder c = Comparison.newBuilder().setMetric("metadata_stat").setGating(true).setNPairs(8)
        .setChange(0.1).setCiLow(0.05).setCiHigh(0.15);
    Experiment e = Experiment.newBuilder().setState("running").setPairsDone(8).setPairsWanted(16)
        .addComparisons(c.clone().setHostClass("qemu/kvm cpu=a"))
        .addComparisons(c.clone().setHostClass("qemu/kvm cpu=b"))
        .addComparisons(c.clone())
        .build();

    assertThat(Progress.status(e)).contains("metadata_stat (qemu/kvm cpu=a) +10.0%")
        .contains("metadata_stat (qemu/kvm cpu=b) +10.0%").contains("metadata_stat (pooled) +10.0%");
  }

  @Test
  void aStatusLongerThanTheTerminalLosesItsIntervalsThenIsCut() {
    String status = "  status: pairs 12/20, ETA 2m 10s; metadata_stat +58.1% [+50.2%, +66.0%] improved;"
        + " seq_read -3.5% [-7.0%, +0.1%]";

    assertThat(Progress.fit(status, 200)).isEqualTo(status);
    assertThat(Progress.fit(status, 82))
        .isEqualTo("  status: pairs 12/20, ETA 2m 10s; metadata_stat +58.1% improved; seq_read -3.5%");
    assertThat(Progress.fit(status, 40)).isEqualTo("  status: pairs 12/20, ETA 2m 10s; m...").hasSize(39);
  }

  @Test
  void onATerminalTheRunningStatusFitsOneRowAndTheFinalOneIsWhole() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, () -> 30);
    Experiment e = Experiment.newBuilder().setState("running").setPairsWanted(2).build();
    p.onChange(e);
    p.onChange(e.toBuilder().setPairsDone(2).setState("completed").build());

    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(
        "\r\033[K  status: pairs 0/2, ETA a...\r\033[K  status: pairs 2/2, completed\n");
  }

  @Test
  void aQueuedExperimentShowsItsPlaceInLine() {
    Experiment e = Experiment.newBuilder().setState("running").setPairsWanted(8).setQueuePosition(2).build();

    assertThat(Progress.status(e)).isEqualTo("  status: queued, 2nd in line for a host; pairs 0/8");
    assertThat(Progress.status(e.toBuilder().setQueuePosition(0).build()))
        .isEqualTo("  status: pairs 0/8, ETA after the first block");
    assertThat(Progress.status(e.toBuilder().setQueuePosition(0).setState("completed").setPairsDone(8).build()))
        .isEqualTo("  status: pairs 8/8, completed");
  }

  @Test
  void onATerminalTheStatusIsRedrawnInPlaceAndLeftAsALineAtTheEnd() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
    Experiment e = Experiment.newBuilder().setState("running").setPairsWanted(2).build();
    p.onChange(e);
    p.onChange(e.toBuilder().setPairsDone(1).addBoots(boot("r1", "ok")).build());
    p.onChange(e.toBuilder().setPairsDone(2).setState("completed").build());

    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out).startsWith("\r\033[K  status: pairs 0/2")
        .contains("\r\033[K  pair 3.1").contains("\n  status: pairs 1/2")
        .endsWith("\r\033[K  status: pairs 2/2, completed\n");
    // While running, the status line has no line end: the next update overwrites it.
    assertThat(out).startsWith("\r\033[K  status: pairs 0/2, ETA after the first block\r\033[K  pair 3.1");
  }

  @Test
  void withoutATerminalAnUnchangedStatusIsNotRepeated() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
    Experiment e = Experiment.newBuilder().setState("running").setPairsWanted(2).build();
    p.onChange(e);
    p.onChange(e);
    p.onChange(e);

    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("  status: pairs 0/2, ETA after the first block\n")
        .doesNotContain("\033");
  }

  @Test
  void durationsReadAsAPersonWouldSayThem() {
    assertThat(ExperimentFacts.duration(45)).isEqualTo("45s");
    assertThat(ExperimentFacts.duration(130)).isEqualTo("2m 10s");
    assertThat(ExperimentFacts.duration(3_900)).isEqualTo("1h 05m");
  }
}
