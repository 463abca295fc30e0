package dev.abfleet.cli.report;

import dev.abfleet.controller.report.ProtoReports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.KernelBuild;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.RunTelemetry;
import dev.abfleet.report.JsonReport;
import dev.abfleet.report.MarkdownReport;
import dev.abfleet.report.TextReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Reports of experiments the controller ran, through the one report model
 * ({@link ProtoReports}), against golden files in src/test/resources/golden. After an intended format
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
    e.addBootFailures(dev.abfleet.proto.fleet.v1.BootFailureComparison.newBuilder().setArm("spinwait")
        .setBaselineFailed(0).setBaselineBoots(2).setCandidateFailed(1).setCandidateBoots(2).setPValue(1.0)
        .setVerdict("inconclusive"));
    return e.setOverall("inconclusive").build();
  }

  static Comparison cmp(String metric, String unit, double base, double cand, double change, double lo, double hi,
      double p, double padj, String verdict, boolean gating) {
    return Comparison.newBuilder().setArm("spinwait").setMetric(metric).setUnit(unit).setBetter("higher")
        .setNPairs(2).setBaselineCenter(base).setCandidateCenter(cand).setChange(change).setCiLow(lo).setCiHigh(hi)
        .setPValue(p).setPAdjusted(padj).setVerdict(verdict).setGating(gating).build();
  }

  static Boot boot(String run, String arm, int pair, int order, double value, String status) {
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

  static String text(Experiment e) {
    return TextReport.render(ProtoReports.of(e));
  }

  static String markdown(Experiment e) {
    return MarkdownReport.render(ProtoReports.of(e));
  }

  static String json(Experiment e) {
    return JsonReport.render(ProtoReports.of(e));
  }

  @Test
  void textReportMatchesGolden() throws IOException {
    assertGolden("fuse.txt", text(fuseCase()));
  }

  @Test
  void markdownReportMatchesGolden() throws IOException {
    assertGolden("fuse.md", markdown(fuseCase()));
  }

  @Test
  void jsonReportMatchesGolden() throws IOException {
    assertGolden("fuse.json", json(fuseCase()));
  }

  /** The motivating report's ceiling: the candidate at 97% of a hard-pinned arm. */
  @Test
  void ceilingColumnShowsEachCandidateAsAFractionOfTheCeiling() throws IOException {
    Experiment.Builder e = fuseCase().toBuilder();
    e.setSpec(e.getSpec().toBuilder().addArms(Arm.newBuilder().setName("pinned").setRole("ceiling")));
    e.setComparisons(0, e.getComparisons(0).toBuilder().setOfCeiling(0.97));
    e.addComparisons(cmp("metadata_stat", "ops/s", 31800, 51860, 0.63, 0.55, 0.70, 0.0078, 0.0078, "improved", false)
        .toBuilder().setArm("pinned"));
    assertGolden("ceiling.txt", text(e.build()));
    assertThat(json(e.build())).contains("\"ceiling\" : \"pinned\"").contains("\"of_ceiling\" : 0.97");
    assertThat(markdown(e.build())).contains("spinwait/metadata_stat (97% of ceiling)");
  }

  /** The FUSE table with both kernels built by abfleet: the stock tree, and it with one patch. */
  static Experiment buildsCase() {
    Experiment.Builder e = fuseCase().toBuilder();
    ExperimentSpec.Builder spec = e.getSpec().toBuilder();
    spec.setArms(0, spec.getArms(0).toBuilder().setBuild(kernelBuild(
        "3f2a9c1d5b0e8f47a6c2d9e1b3f5a7c8e0d2b4f6a8c1e3d5f7b9a0c2e4d6f8b1")));
    spec.setArms(1, spec.getArms(1).toBuilder().setBuild(kernelBuild(
        "9b1e07aa4c6e8d2f1a3b5c7d9e0f2a4b6c8d0e1f3a5b7c9d2e4f6a8b0c1d3e5f")
        .addPatches("fuse-spinwait.patch")
        .addPatchDigests("a4895eb44afc336fecbba6e520cd67e178dace0276655d102fceffa8e5f70570")));
    return e.setSpec(spec).build();
  }

  static KernelBuild.Builder kernelBuild(String key) {
    return KernelBuild.newBuilder().setKey(key).setSource("linux-source-6.1.tar.xz")
        .setSourceDigest("25a6634263c1b1f6fc4697a04e2b9904ea4b042a89af59dc93ec1f5d44848a26")
        .setConfig("abfleet-minimal").setArch("x86_64").setToolchain("gcc (Debian 12.2.0-14) 12.2.0")
        .setRelease("6.1.176");
  }

  @Test
  void builtArmsTextReportMatchesGolden() throws IOException {
    assertGolden("builds.txt", text(buildsCase()));
  }

  @Test
  void builtArmsMarkdownReportMatchesGolden() throws IOException {
    assertGolden("builds.md", markdown(buildsCase()));
  }

  @Test
  void builtArmsJsonReportMatchesGolden() throws IOException {
    assertGolden("builds.json", json(buildsCase()));
  }

  @Test
  void sequentialExperimentSaysAtWhichLookItStopped() {
    Experiment e = fuseCase().toBuilder().setPairsDone(10).setPairsWanted(30)
        .setSpec(fuseCase().getSpec().toBuilder().setPolicy(Policy.newBuilder().addLooks(10).addLooks(20).addLooks(30)))
        .build();
    assertThat(ProtoReports.of(e).pairsLine()).isEqualTo("10 pairs (sequential, looks 10/20/30: stopped at look 1)");
    assertThat(json(e)).contains("\"stopped_early\" : true").contains("\"looks\" : [ 10, 20, 30 ]");
  }

  @Test
  void simulatedExperimentSaysSoFirstInEveryFormat() {
    Experiment e = fuseCase().toBuilder()
        .setSpec(fuseCase().getSpec().toBuilder().setSelector(HostSelector.newBuilder().setHypervisor("sim")))
        .build();

    assertThat(text(e)).startsWith("SIMULATION: hypervisor sim, every figure comes from a performance model");
    assertThat(markdown(e)).contains("\n\n> **SIMULATION: hypervisor sim,");
    assertThat(json(e)).contains("\"simulation\" : true");
    assertThat(text(fuseCase())).doesNotContain("SIMULATION");
    assertThat(json(fuseCase())).doesNotContain("simulation");
  }

  @Test
  void gateFailsOnTheOverallTheControllerSent() {
    assertThat(ProtoReports.of(fuseCase()).assessment().regressed()).isFalse();
    Experiment regressed = fuseCase().toBuilder().setOverall("regressed").build();
    assertThat(ProtoReports.of(regressed).assessment().regressed()).isTrue();
    assertThat(text(regressed)).contains("verdict: regressed");
  }

  /**
   * The same arms on QEMU/KVM and Apple VZ: metadata_stat improves on one class only (no pooled
   * verdict, heterogeneity flagged), seq_read holds on both (pooled no_change).
   */
  static Experiment crossHostCase() {
    Experiment.Builder e = fuseCase().toBuilder().clearComparisons().clearBoots().clearBootFailures().setPairsDone(16).setPairsWanted(16)
        .setRetriedBlocks(0);
    e.setSpec(e.getSpec().toBuilder().setSelector(dev.abfleet.proto.fleet.v1.HostSelector.newBuilder()
        .setHypervisor("qemu").addHypervisors("qemu").addHypervisors("vz"))
        .setPolicy(Policy.newBuilder().setNoiseThreshold(0.02).setAlpha(0.05).setPairs(8)));
    e.setOverall("improved").putClassPairs("qemu/kvm", 8).putClassPairs("vz/vz", 8);
    e.addComparisons(cmp("metadata_stat", "ops/s", 31800, 41300, 0.30, 0.12, 0.47, 0.0004, 0.0012, "inconclusive", true)
        .toBuilder().setNPairs(16).addReasons("class_heterogeneity")
        .addWarnings("host classes disagree, no pooled verdict: qemu/kvm improved (+58.2%), vz/vz no_change (+0.4%)"));
    e.addComparisons(cmp("metadata_stat", "ops/s", 31800, 50300, 0.582, 0.51, 0.649, 0.0078, 0.0312, "improved", true)
        .toBuilder().setNPairs(8).setHostClass("qemu/kvm"));
    e.addComparisons(cmp("metadata_stat", "ops/s", 29000, 29120, 0.004, -0.012, 0.019, 0.55, 1.0, "no_change", true)
        .toBuilder().setNPairs(8).setHostClass("vz/vz"));
    e.addComparisons(cmp("seq_read", "MiB/s", 1402, 1398, -0.003, -0.011, 0.006, 0.61, 1.0, "no_change", true)
        .toBuilder().setNPairs(16));
    e.addComparisons(cmp("seq_read", "MiB/s", 1402, 1399, -0.002, -0.012, 0.009, 0.64, 1.0, "no_change", true)
        .toBuilder().setNPairs(8).setHostClass("qemu/kvm"));
    e.addComparisons(cmp("seq_read", "MiB/s", 1390, 1385, -0.004, -0.015, 0.008, 0.58, 1.0, "no_change", true)
        .toBuilder().setNPairs(8).setHostClass("vz/vz"));
    for (int pair = 0; pair < 16; pair++) {
      boolean kvm = pair % 2 == 0;
      String host = kvm ? "linux-1" : "mac-1";
      for (String arm : java.util.List.of("stock", "spinwait")) {
        e.addBoots(boot("e-0000f00d-p" + pair + "-a0-" + arm, arm, pair, arm.equals("stock") ? pair % 2 : 1 - pair % 2,
            31800, "ok").toBuilder().setHostId(host).setHostClass(kvm ? "qemu/kvm" : "vz/vz")
            .setTelemetry(RunTelemetry.newBuilder().setHostId(host).setHypervisor(kvm ? "qemu" : "vz")
                .setAccelerator(kvm ? "kvm" : "vz").setKernelRelease("6.1.0-50-cloud-arm64")));
      }
    }
    return e.build();
  }

  @Test
  void crossHostTextReportShowsClassRowsAndThePooledRowWithTheFlag() throws IOException {
    assertGolden("crosshost.txt", text(crossHostCase()));
  }

  @Test
  void crossHostMarkdownReportMatchesGolden() throws IOException {
    assertGolden("crosshost.md", markdown(crossHostCase()));
  }

  @Test
  void crossHostJsonReportMatchesGolden() throws IOException {
    assertGolden("crosshost.json", json(crossHostCase()));
  }

  @Test
  void crossHostReportFlagsTheClassesDisagreeing() {
    assertThat(ProtoReports.of(crossHostCase()).assessment().classHeterogeneity()).isTrue();
    assertThat(ProtoReports.of(fuseCase()).assessment().classHeterogeneity()).isFalse();
  }

  /** Multi-arm with a ceiling, as a pull-request comment. */
  @Test
  void ceilingMarkdownReportMatchesGolden() throws IOException {
    Experiment.Builder e = fuseCase().toBuilder();
    e.setSpec(e.getSpec().toBuilder().addArms(Arm.newBuilder().setName("pinned").setRole("ceiling")));
    e.setComparisons(0, e.getComparisons(0).toBuilder().setOfCeiling(0.97));
    e.addComparisons(cmp("metadata_stat", "ops/s", 31800, 51860, 0.63, 0.55, 0.70, 0.0078, 0.0078, "improved", false)
        .toBuilder().setArm("pinned"));
    assertGolden("ceiling.md", markdown(e.build()));
  }

  private static void assertGolden(String name, String actual) throws IOException {
    Path file = GOLDEN.resolve(name);
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }
}
