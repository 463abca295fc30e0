package dev.abfleet.cli.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectKernel;
import dev.abfleet.proto.fleet.v1.BisectProbe;
import dev.abfleet.proto.fleet.v1.BisectSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class BisectReportTest {
  private static Bisect.Builder bisect(String state, String hypervisor) {
    Bisect.Builder b = Bisect.newBuilder().setBisectId("b-1").setState(state).setHypervisor(hypervisor)
        .setLastGood(1).setFirstBad(2);
    for (int i = 0; i < 3; i++) {
      b.addKernels(BisectKernel.newBuilder().setLabel("/k/k" + i));
    }
    return b.addProbes(BisectProbe.newBuilder().setGood(0).setProbe(1).setOutcome("good").setExperimentId("e1")
        .setPairs(10).setBoots(21).setChange(0.001).setCiLow(-0.01).setCiHigh(0.012)
        .setNote("no_change at look 1 of 3 (10 pairs)"));
  }

  @Test
  void aSimulatedBisectIsLabelledSimulationFirstAndLast() {
    List<String> lines = BisectReport.render(bisect("found", "sim").build()).lines().toList();
    assertThat(lines).first().asString().startsWith("SIMULATION:");
    assertThat(lines).last().asString().startsWith("SIMULATION:");
    assertThat(lines).contains("probe #1 vs #0: good         change +0.1% [-1.0%, +1.2%], 10 pairs, 21 boots,"
        + " experiment e1: no_change at look 1 of 3 (10 pairs)",
        "first regressing: #2 /k/k2 (last good: #1 /k/k1)",
        "cost: 1 probes, 1 experiments, 10 pairs, 21 boots");
  }

  @Test
  void anAmbiguousBisectNamesTheOpenRangeAndAFailedOneItsMessage() {
    String ambiguous = BisectReport.render(bisect("ambiguous", "qemu").setLastGood(0).setFirstBad(2)
        .setAmbiguousProbe(1).build());
    assertThat(ambiguous).doesNotContain("SIMULATION").contains("ambiguous: the first regressing kernel is one of #1"
        + " to #2; probe #1 stayed inconclusive at the last look");
    String failed = BisectReport.render(bisect("failed", "qemu").setMessage("probe #1 vs #0: experiment e1 failed: x")
        .build());
    assertThat(failed).contains("failed: probe #1 vs #0: experiment e1 failed: x\n").doesNotContain("first regressing");
    assertThat(BisectReport.render(bisect("found", "qemu").setKernels(2, BisectKernel.newBuilder()
        .setKernel(dev.abfleet.proto.fleet.v1.Artifact.newBuilder().setSha256("ab"))).build()))
        .contains("first regressing: #2 sha256:ab ");
  }

  @Test
  void theListShowsOneLinePerBisect() {
    String table = BisectCommand.table(List.of(BisectSummary.newBuilder().setBisectId("b-1").setState("running")
        .setMetric("seq_read").setStartedAtMs(0).setProbesDone(1).setMaxProbes(4).setKernels(16).build()));
    assertThat(table.lines()).hasSize(2);
    assertThat(table.lines().skip(1).findFirst().orElseThrow())
        .matches("b-1 +running +seq_read +1970-01-01T00:00:00Z +1/4 +16");
    assertThat(BisectCommand.table(List.of())).isEqualTo("no bisects\n");
  }
}
