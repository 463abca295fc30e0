package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.build.BuildEvent;
import dev.abfleet.controller.build.BuildFailure;
import dev.abfleet.controller.build.BuildState;
import dev.abfleet.controller.build.BuildView;
import dev.abfleet.controller.build.BuiltKernel;
import dev.abfleet.controller.plan.BuildJob;
import dev.abfleet.proto.fleet.v1.BuildArtifacts;
import dev.abfleet.proto.fleet.v1.BuildFile;
import dev.abfleet.proto.fleet.v1.BuildInputs;
import dev.abfleet.proto.fleet.v1.BuildOutput;
import dev.abfleet.proto.fleet.v1.BuildReport;
import dev.abfleet.proto.fleet.v1.BuildStatus;
import dev.abfleet.proto.fleet.v1.KernelBuild;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuildProtosTest {
  static final String A = "a".repeat(64);

  static BuildInputs.Builder inputs() {
    return BuildInputs.newBuilder().setSource(BuildFile.newBuilder().setName("linux-6.1.tar.xz").setSha256(A))
        .addPatches(BuildFile.newBuilder().setName("fix.patch").setSha256("b".repeat(64)))
        .addConfigLines("CONFIG_FUSE_FS=y").setArch("x86_64");
  }

  @Test
  void aValidRequestHasNoProblemsAndRoundTrips() {
    BuildInputs in = inputs().build();

    assertThat(BuildProtos.problems(in)).isEmpty();
    BuildInputs back = BuildProtos.inputs(BuildProtos.inputs(in));
    assertThat(back.toBuilder().clearConfigBase().build()).isEqualTo(in);
    assertThat(back.getConfigBase()).isEqualTo("abfleet-minimal");
  }

  @Test
  void pathsBadHashesAndUnknownBasesAreRefusedNamingTheFieldAndTheFix() {
    BuildInputs in = inputs()
        .setSource(BuildFile.newBuilder().setName("/usr/src/linux.tar.xz").setSha256("XYZ"))
        .setConfigBase("myconfig").setArch("riscv").addConfigLines("FUSE=y").addMakeArgs("-j 99").build();

    List<String> problems = BuildProtos.problems(in);

    assertThat(problems).hasSize(6);
    assertThat(String.join("\n", problems)).contains("inputs.source.name", "no directory", "inputs.source.sha256",
        "64 lower-case hex", "inputs.config_base: 'myconfig'", "config_file", "inputs.arch: 'riscv'",
        "inputs.config_lines[1]", "inputs.make_args[0]");
    assertThat(BuildProtos.problems(BuildInputs.getDefaultInstance())).singleElement().asString()
        .contains("inputs.source: missing");
  }

  @Test
  void theSameInputsAreTheSameBuildIdAndAnotherPatchIsAnother() {
    var one = BuildProtos.inputs(inputs().build());
    var two = BuildProtos.inputs(inputs().build());
    var other = BuildProtos.inputs(inputs().setPatches(0, BuildFile.newBuilder().setName("fix.patch")
        .setSha256("c".repeat(64))).build());

    assertThat(one.buildId()).isEqualTo(two.buildId()).hasSize(64).isNotEqualTo(other.buildId());
  }

  @Test
  void reportsMapToOutcomesAndAFailureKeepsItsKind() {
    BuildReport built = BuildReport.newBuilder().setBuilt(BuildOutput.newBuilder()
        .setKernel(KernelBuild.newBuilder().setKey("k").setRelease("6.1.0").addPatches("fix.patch"))
        .setArtifacts(BuildArtifacts.newBuilder().setImageSha256(A).setImageBytes(42)).setBuildMs(7)).build();
    BuildReport failed = BuildReport.newBuilder().setFailed(dev.abfleet.proto.fleet.v1.BuildFailure.newBuilder()
        .setKind(dev.abfleet.proto.fleet.v1.BuildFailure.Kind.PATCH).setFile("fix.patch").setFirstError("no")).build();

    var k = BuildProtos.outcome(built).kernel();
    assertThat(k.imageSha256()).isEqualTo(A);
    assertThat(k.patches()).containsExactly("fix.patch");
    assertThat(k.buildMs()).isEqualTo(7);
    var f = BuildProtos.outcome(failed).failure();
    assertThat(f.kind()).isEqualTo(BuildFailure.Kind.PATCH);
    assertThat(f.file()).isEqualTo("fix.patch");
  }

  @Test
  void aBuiltStatusCarriesProvenanceAndArtifactsAndABuildingOneItsHostAndProgress() {
    var inputs = BuildProtos.inputs(inputs().build());
    BuildState s = BuildState.empty(inputs.buildId())
        .apply(new BuildEvent.BuildSubmitted(inputs.buildId(), inputs, 0))
        .apply(new BuildEvent.AttemptStarted("x-a1", "w1", 3, 0));
    BuildStatus building = BuildProtos.status(new BuildView(s, new BuildView.Progress("compile", 120, 900)));
    assertThat(building.getState()).isEqualTo(BuildStatus.State.BUILDING);
    assertThat(building.getHost()).isEqualTo("w1");
    assertThat(building.getObjects()).isEqualTo(120);

    BuiltKernel kernel = new BuiltKernel("k", "linux-6.1.tar.xz", A, List.of(), List.of(), "abfleet-minimal",
        "x86_64", "gcc", "6.1.0", "c".repeat(64), "d".repeat(64), "e".repeat(64), "", 1, 2);
    BuildStatus done = BuildProtos.status(new BuildView(s.apply(new BuildEvent.BuildSucceeded("x-a1", "w1", kernel, 0)),
        BuildView.Progress.NONE));
    assertThat(done.getState()).isEqualTo(BuildStatus.State.BUILT);
    assertThat(done.getKernel().getRelease()).isEqualTo("6.1.0");
    assertThat(done.getArtifacts().getImageSha256()).isEqualTo("c".repeat(64));
    assertThat(done.getBuiltOn()).isEqualTo("w1");
    assertThat(done.getHost()).isEmpty();
  }

  @Test
  void aBuildReportUnderAnotherEpochOrForAnUnassignedAttemptIsRefusedAtTheSession() {
    var inputs = BuildProtos.inputs(inputs().build());
    BuildJob job = new BuildJob(inputs.buildId(), "x-a1", "w1", 5, inputs);
    var ok = new SessionBuilds.BuildReported(inputs.buildId(), "x-a1", 5, null);

    assertThat(SessionBuilds.refusal(job, ok)).isEmpty();
    assertThat(SessionBuilds.refusal(job, new SessionBuilds.BuildReported(inputs.buildId(), "x-a1", 4, null)))
        .contains(ReportCheck.STALE_EPOCH);
    assertThat(SessionBuilds.refusal(null, ok)).contains(ReportCheck.UNLEASED_BLOCK);
  }
}
