package dev.abfleet.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Report formats against golden files in src/test/resources/golden. After an intended format
 * change, regenerate them with {@code mvn -pl cli test -Dtest=ReportGoldenTest -Dgolden.update=true}
 * and review the diff.
 */
class ReportGoldenTest {
  private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

  /** The motivating FUSE table: three metadata metrics up, sequential read within noise. */
  static Experiment fuseCase() {
    Experiment.Builder e = Experiment.newBuilder()
        .setExperimentId("e-0000f00d")
        .setState("completed")
        .setPairsDone(2)
        .setPairsWanted(2)
        .setSeed(42)
        .setRetriedBlocks(1)
        .setSpec(ExperimentSpec.newBuilder()
            .addArms(Arm.newBuilder().setName("stock").setRole("baseline"))
            .addArms(Arm.newBuilder().setName("spinwait").setRole("candidate"))
            .setPolicy(Policy.newBuilder().setNoiseThreshold(0.02).setAlpha(0.05).setPairs(2)));
    e.addComparisons(cmp("metadata_stat", "ops/s", 31800, 50300, 0.582, 0.51, 0.649, 0.0078, 0.0312, "improved", true));
    e.addComparisons(cmp("negative_lookup", "ops/s", 40100, 56140, 0.40, 0.33, 0.47, 0.0078, 0.0312, "improved", true));
    e.addComparisons(cmp("create_delete", "ops/s", 8000, 10240, 0.28, 0.2, 0.35, 0.0078, 0.0312, "improved", true));
    e.addComparisons(cmp("seq_read", "MiB/s", 1402, 1353, -0.035, -0.09, 0.021, 0.31, 0.31, "inconclusive", true)
        .toBuilder().addReasons("near_threshold").addWarnings("n=2 usable pairs; need at least 8 for a 98.75% interval").build());
    e.addComparisons(cmp("boot_time", "ms", 2100, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
        "inconclusive", false).toBuilder().addReasons("underpowered").build());
    e.addBoots(boot("e-0000f00d-p0-a0-stock", "stock", 0, 0, 31800, "ok"));
    e.addBoots(boot("e-0000f00d-p0-a0-spinwait", "spinwait", 0, 1, 50300, "ok"));
    e.addBoots(boot("e-0000f00d-p1-a1-spinwait", "spinwait", 1, 0, 0, "boot_failed")
        .toBuilder().clearSamples().setMessage("kernel did not reach the harness (VM exited with code 0); see console tail").build());
    e.addBoots(boot("e-0000f00d-p1-a1-stock", "stock", 1, 1, 31700, "ok"));
    return e.build();
  }

  private static Comparison cmp(String metric, String unit, double base, double cand, double change, double lo, double hi,
      double p, double padj, String verdict, boolean gating) {
    return Comparison.newBuilder().setArm("spinwait").setMetric(metric).setUnit(unit).setBetter("higher")
        .setNPairs(2).setBaselineCenter(base).setCandidateCenter(cand).setChange(change).setCiLow(lo).setCiHigh(hi)
        .setPValue(p).setPAdjusted(padj).setVerdict(verdict).setGating(gating).build();
  }

  private static Boot boot(String run, String arm, int pair, int order, double value, String status) {
    return Boot.newBuilder().setRunId(run).setArm(arm).setHostId("host-1").setPairIndex(pair).setOrderInPair(order)
        .setLeaseEpoch(pair + 1).setStatus(status)
        .setTelemetry(RunTelemetry.newBuilder().setHostId("host-1").setHypervisor("qemu").setAccelerator("tcg")
            .setKernelRelease("6.1.0-50-cloud-amd64").setBootMs(2300).setRunMs(7900).setStageMs(12))
        .addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(value * 0.9).setUnit("ops/s")
            .setBetter("higher").setIteration(0).setWarmup(true))
        .addSamples(MetricSample.newBuilder().setMetric("metadata_stat").setValue(value).setUnit("ops/s")
            .setBetter("higher").setIteration(1))
        .build();
  }

  @Test
  void textReportMatchesGolden() throws IOException {
    assertGolden("fuse.txt", TextReport.render(fuseCase()));
  }

  @Test
  void markdownReportMatchesGolden() throws IOException {
    assertGolden("fuse.md", MarkdownReport.render(fuseCase()));
  }

  @Test
  void jsonReportMatchesGolden() throws IOException {
    assertGolden("fuse.json", JsonReport.render(fuseCase()));
  }

  /** The motivating report's ceiling: the candidate at 97% of a hard-pinned arm. */
  @Test
  void ceilingColumnShowsEachCandidateAsAFractionOfTheCeiling() throws IOException {
    Experiment.Builder e = fuseCase().toBuilder();
    e.setSpec(e.getSpec().toBuilder().addArms(Arm.newBuilder().setName("pinned").setRole("ceiling")));
    e.setComparisons(0, e.getComparisons(0).toBuilder().setOfCeiling(0.97));
    e.addComparisons(cmp("metadata_stat", "ops/s", 31800, 51860, 0.63, 0.55, 0.70, 0.0078, 0.0078, "improved", false)
        .toBuilder().setArm("pinned"));
    assertGolden("ceiling.txt", TextReport.render(e.build()));
    assertThat(JsonReport.render(e.build())).contains("\"ceiling\" : \"pinned\"").contains("\"of_ceiling\" : 0.97");
    assertThat(MarkdownReport.render(e.build())).contains("spinwait/metadata_stat (97% of ceiling)");
  }

  @Test
  void sequentialExperimentSaysAtWhichLookItStopped() {
    Experiment e = fuseCase().toBuilder().setPairsDone(10).setPairsWanted(30)
        .setSpec(fuseCase().getSpec().toBuilder().setPolicy(Policy.newBuilder().addLooks(10).addLooks(20).addLooks(30)))
        .build();
    assertThat(Reports.pairsLine(e)).isEqualTo("10 pairs (sequential, looks 10/20/30: stopped at look 1)");
    assertThat(JsonReport.render(e)).contains("\"stopped_early\" : true").contains("\"looks\" : [ 10, 20, 30 ]");
  }

  @Test
  void overallIsImprovedOnlyWhenNoGatingMetricRegressedAndTheRestHeld() {
    assertThat(Reports.overall(fuseCase())).isEqualTo("inconclusive");
    Experiment allGood = fuseCase().toBuilder().removeComparisons(3).build();
    assertThat(Reports.overall(allGood)).isEqualTo("improved");
    Experiment oneBad = fuseCase().toBuilder()
        .setComparisons(3, fuseCase().getComparisons(3).toBuilder().setVerdict("regressed")).build();
    assertThat(Reports.overall(oneBad)).isEqualTo("regressed");
    assertThat(Reports.anyGatingRegression(oneBad)).isTrue();
  }

  private static void assertGolden(String name, String actual) throws IOException {
    Path file = GOLDEN.resolve(name);
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }
}
