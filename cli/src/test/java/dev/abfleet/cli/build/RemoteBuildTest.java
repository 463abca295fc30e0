package dev.abfleet.cli.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BuildFailure;
import dev.abfleet.proto.fleet.v1.BuildStatus;
import org.junit.jupiter.api.Test;

class RemoteBuildTest {

  @Test
  void eachStateChangeIsOneLineAndOnlyTheObjectCountLeavesItAlone() {
    BuildStatus compiling = BuildStatus.newBuilder().setState(BuildStatus.State.BUILDING).setHost("w2")
        .setPhase("compile").setAttempts(2).setObjects(10).build();

    assertThat(RemoteBuild.line(compiling)).isEqualTo("build: compile on w2 (attempt 2)");
    assertThat(RemoteBuild.line(compiling.toBuilder().setObjects(900).build())).isEqualTo(RemoteBuild.line(compiling));
    assertThat(RemoteBuild.line(BuildStatus.newBuilder().setState(BuildStatus.State.QUEUED).build()))
        .isEqualTo("build: queued for a builder");
  }

  @Test
  void aFailureIsOneLineNamingKindFileAndFirstError() {
    BuildFailure f = BuildFailure.newBuilder().setKind(BuildFailure.Kind.COMPILE).setFile("fs/stat.c")
        .setFirstError("error: expected ';' before 'return'").setLogSha256("a".repeat(64)).build();

    assertThat(RemoteBuild.failureLine(f)).isEqualTo("build: build failed (compile): fs/stat.c: error: expected ';'"
        + " before 'return' (log: abfleet:sha256:" + "a".repeat(64) + ")");
  }
}
