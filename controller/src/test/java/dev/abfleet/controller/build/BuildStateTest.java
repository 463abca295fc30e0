package dev.abfleet.controller.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.controller.build.BuildEvent.AttemptEnded;
import dev.abfleet.controller.build.BuildEvent.AttemptStarted;
import dev.abfleet.controller.build.BuildEvent.BuildFailed;
import dev.abfleet.controller.build.BuildEvent.BuildSubmitted;
import org.junit.jupiter.api.Test;

/** The retry rules of a build, on its state alone. */
class BuildStateTest {

  static BuildState running(int attempts) {
    BuildState s = BuildState.empty("f".repeat(64)).apply(new BuildSubmitted("f".repeat(64), BuildEntityTest.INPUTS, 0));
    for (int i = 1; i <= attempts; i++) {
      s = s.apply(new AttemptStarted(s.nextAttemptId(), "w" + i, i, 0));
      if (i < attempts) {
        s = s.apply(new AttemptEnded(s.attempt().attemptId(), "w" + i, "lost"));
      }
    }
    return s;
  }

  @Test
  void userFailuresAreFinal() {
    for (BuildFailure.Kind kind : new BuildFailure.Kind[] {BuildFailure.Kind.SOURCE, BuildFailure.Kind.PATCH,
        BuildFailure.Kind.CONFIG, BuildFailure.Kind.COMPILE}) {
      assertThat(running(1).afterReport(BuildEntityTest.failed(kind), 0)).as(kind.name()).isInstanceOf(BuildFailed.class);
    }
  }

  @Test
  void infraFailuresAreRetriedUntilTheAttemptsAreSpent() {
    assertThat(running(1).afterReport(BuildEntityTest.failed(BuildFailure.Kind.INFRA), 0))
        .isInstanceOf(AttemptEnded.class);
    BuildEvent last = running(BuildState.MAX_ATTEMPTS).retryOrFail("lease lost", 0);
    assertThat(last).isInstanceOf(BuildFailed.class);
    assertThat(((BuildFailed) last).failure().kind()).isEqualTo(BuildFailure.Kind.INFRA);
    assertThat(((BuildFailed) last).failure().firstError()).contains("gave up after 4 attempts", "lease lost");
  }

  @Test
  void aRetryAvoidsHostsWhereAnAttemptEndedBadlyOnlyWhenAnotherHostMatches() {
    BuildState s = running(2).apply(new AttemptEnded(running(2).attempt().attemptId(), "w2", "lost"));

    assertThat(s.avoids("w1", true)).isTrue();
    assertThat(s.avoids("w1", false)).isFalse();
    assertThat(s.avoids("w3", true)).isFalse();
  }

  @Test
  void onlyTheRunningAttemptUnderItsEpochIsCurrent() {
    BuildState s = running(1);
    String id = s.attempt().attemptId();

    assertThat(s.isCurrent(id, "w1", 1)).isTrue();
    assertThat(s.isCurrent(id, "w1", 0)).isFalse();
    assertThat(s.isCurrent(id, "w2", 1)).isFalse();
    assertThat(s.isCurrent("other", "w1", 1)).isFalse();
  }
}
