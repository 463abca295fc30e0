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
  void theEndpointsComeFirstWithTheRuleAndEachProbeSaysWhy() {
    Bisect b = Bisect.newBuilder().setBisectId("b-2").setState("found").setHypervisor("qemu").setLastGood(1)
        .setFirstBad(2).setFraction(0.5).setEndpointChange(-0.15).setEndpointCiLow(-0.18).setEndpointCiHigh(-0.12)
        .addAllKernels(List.of(BisectKernel.newBuilder().setLabel("/k/0").build(),
            BisectKernel.newBuilder().setLabel("/k/1").build(), BisectKernel.newBuilder().setLabel("/k/2").build()))
        .addProbes(BisectProbe.newBuilder().setGood(0).setProbe(2).setOutcome("bad").setExperimentId("e0")
            .setPairs(10).setBoots(20).setChange(-0.15).setCiLow(-0.18).setCiHigh(-0.12)
            .setNote("regressed at look 1 of 3 (10 pairs)")
            .setRule("endpoints: regression R = -15.0% shown (better end -12.0% is worse than no change)"))
        .addProbes(BisectProbe.newBuilder().setGood(0).setProbe(1).setOutcome("good").setExperimentId("e1")
            .setPairs(15).setBoots(30).setChange(-0.001).setCiLow(-0.028).setCiHigh(0.033)
            .setNote("no_change at look 2 of 3 (15 pairs)")
            .setRule("good: worse end -2.8% rules out 0.5 x endpoints' -15.0% = -7.5%"))
        .build();
    assertThat(BisectReport.render(b).lines().toList()).containsExactly(
        "rule: against #0, a probe is good when its interval rules out 0.5 x the endpoints' -15.0% [-18.0%, -12.0%]"
            + " = -7.5%, bad when it rules out no change",
        "endpoints #2 vs #0: bad          change -15.0% [-18.0%, -12.0%], 10 pairs, 20 boots, experiment e0:"
            + " regressed at look 1 of 3 (10 pairs); endpoints: regression R = -15.0% shown (better end -12.0% is"
            + " worse than no change)",
        "probe #1 vs #0: good         change -0.1% [-2.8%, +3.3%], 15 pairs, 30 boots, experiment e1: no_change at"
            + " look 2 of 3 (15 pairs); good: worse end -2.8% rules out 0.5 x endpoints' -15.0% = -7.5%",
        "first regressing: #2 /k/2 (last good: #1 /k/1)",
        "cost: 2 probes, 2 experiments, 25 pairs, 50 boots");
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
