package dev.abfleet.cli.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.SteppedClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BuildProgressTest {

  @Test
  void etaFollowsTheRateSoFarOnceATenthIsDone() {
    assertThat(BuildProgress.eta(50, 1000, 10_000)).isEmpty();
    assertThat(BuildProgress.eta(100, 1000, 20_000)).isEqualTo(", ETA 3m00s");
    assertThat(BuildProgress.eta(900, 1000, 90_000)).isEqualTo(", ETA 10s");
    assertThat(BuildProgress.eta(10, 0, 1000)).isEmpty();
  }

  @Test
  void withoutATerminalPrintsPhasesAndACountAtMostEveryFifteenSeconds() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SteppedClock clock = new SteppedClock(Instant.ofEpochSecond(1_000_000));
    BuildProgress p = new BuildProgress("build", new PrintStream(bytes, true, StandardCharsets.UTF_8), false, clock);

    p.phase("compile");
    p.compiled(1, 0);
    clock.now = clock.now.plusSeconds(5);
    p.compiled(2, 0);
    clock.now = clock.now.plusSeconds(15);
    p.compiled(40, 0);

    assertThat(bytes.toString(StandardCharsets.UTF_8).lines())
        .containsExactly("build: compile", "build: compiled 1 objects", "build: compiled 40 objects");
  }
}
