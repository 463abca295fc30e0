package dev.abfleet.worker.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.testkit.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessRunnerTest {

  @TempDir
  Path dir;

  private final ProcessRunner runner = new ProcessRunner(Duration.ofMillis(500));

  @Test
  void capturesExitCodeAndOutputTails() {
    RunResult r = runner.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), dir, "t", Duration.ofSeconds(10));

    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.timedOut()).isFalse();
    assertThat(r.stdoutTail()).isEqualTo("out");
    assertThat(r.stderrTail()).isEqualTo("err");
    assertThat(r.stdout()).isEqualTo(dir.resolve("t.stdout"));
  }

  @Test
  void passesArgumentsVerbatimWithoutAShell() {
    RunResult r = runner.run(List.of("echo", "a b; $(id)", "*"), dir, "t", Duration.ofSeconds(10));

    assertThat(r.stdoutTail()).isEqualTo("a b; $(id) *");
  }

  @Test
  void doesNotBlockOnLargeOutput() {
    RunResult r = runner.run(List.of("head", "-c", "20000000", "/dev/zero"), dir, "t", Duration.ofSeconds(20));

    assertThat(r.succeeded()).isTrue();
    assertThat(r.stdout()).hasSize(20_000_000);
  }

  @Test
  void killsProcessAtTimeout() {
    RunResult r = runner.run(List.of("sleep", "30"), dir, "t", Duration.ofMillis(300));

    assertThat(r.timedOut()).isTrue();
    assertThat(r.exitCode()).isEqualTo(-1);
    assertThat(r.wall()).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void killsTheProcessWhenAFileItWritesGrowsPastItsCap() {
    Path flood = dir.resolve("flood.log");
    RunResult r = runner.run(List.of("sh", "-c", "while :; do echo 0123456789abcdef; done > flood.log"), dir, "t",
        Duration.ofSeconds(30), List.of(new OutputCap(flood, 64 * 1024)));

    assertThat(r.overCap()).startsWith("flood.log grew to ").endsWith("past its cap of 65536 bytes");
    assertThat(r.timedOut()).isFalse();
    assertThat(r.exitCode()).isEqualTo(-1);
  }

  @Test
  void reportsAFileThatEndedPastItsCapAlthoughTheProcessExitedByItself() {
    Path out = dir.resolve("t.stdout");
    RunResult r = runner.run(List.of("head", "-c", "100000", "/dev/zero"), dir, "t", Duration.ofSeconds(30),
        List.of(new OutputCap(out, 64 * 1024)));

    assertThat(r.exitCode()).isZero();
    assertThat(r.overCap()).isEqualTo("t.stdout grew to 100000 bytes, past its cap of 65536 bytes");
  }

  @Test
  void killsDescendantsAtTimeout() throws Exception {
    Path pidFile = dir.resolve("child.pid");
    runner.run(List.of("sh", "-c", "sleep 30 & echo $! > " + pidFile + "; wait"), dir, "t", Duration.ofMillis(500));

    long childPid = Long.parseLong(Files.readString(pidFile).strip());
    assertThat(deadOrZombie(childPid)).isTrue();
  }

  /** A killed orphan stays a zombie until init reaps it; either way it no longer runs. */
  private static boolean deadOrZombie(long pid) throws Exception {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    try {
      String s = Files.readString(stat);
      return s.substring(s.lastIndexOf(')') + 2).startsWith("Z");
    } catch (java.nio.file.NoSuchFileException e) {
      return true;
    }
  }

  @Test
  void reportsLaunchErrorForMissingBinary() {
    RunResult r = runner.run(List.of("/nonexistent/qemu"), dir, "t", Duration.ofSeconds(1));

    assertThat(r.launchError()).contains("cannot start /nonexistent/qemu");
    assertThat(r.exitCode()).isEqualTo(-1);
  }

  @Test
  void killsChildAndRestoresInterruptFlagWhenInterrupted() throws Exception {
    AtomicReference<RunResult> result = new AtomicReference<>();
    AtomicReference<Boolean> flag = new AtomicReference<>();
    Thread t = new Thread(() -> {
      result.set(runner.run(List.of("sleep", "30"), dir, "t", Duration.ofSeconds(30)));
      flag.set(Thread.currentThread().isInterrupted());
    });
    t.start();
    // Interrupted while the child runs, not before it is started.
    Eventually.await("the child started", Duration.ofSeconds(10), () -> ProcessHandle.current().descendants()
        .anyMatch(p -> p.info().commandLine().orElse("").endsWith("sleep 30")));
    t.interrupt();
    t.join(10_000);

    assertThat(result.get().interrupted()).isTrue();
    assertThat(result.get().exitCode()).isEqualTo(-1);
    assertThat(result.get().wall()).isLessThan(Duration.ofSeconds(5));
    assertThat(flag.get()).isTrue();
  }

  @Test
  void stopsAProcessStillRunningAfterItsEndMarkerAndKeepsItsWork() {
    // A guest kernel without ACPI: the results are complete, then the VM only halts.
    Path results = dir.resolve("results.log");
    RunResult r = runner.run(List.of("sh", "-c", "echo '{\"event\":\"done\",\"elapsed_ms\":1}' > results.log; sleep 30"),
        dir, "t", Duration.ofSeconds(20), List.of(), new EndMarker(results, List.of("\"event\":\"done\""),
            Duration.ofMillis(300)));

    assertThat(r.stoppedAfterEnd()).isTrue();
    assertThat(r.timedOut()).isFalse();
    assertThat(r.wall()).isLessThan(Duration.ofSeconds(10));
    assertThat(results).content().contains("\"done\"");
  }

  @Test
  void letsAProcessExitByItselfWithinTheGraceAfterItsEndMarker() {
    Path results = dir.resolve("results.log");
    RunResult r = runner.run(List.of("sh", "-c", "echo done > results.log; sleep 0.2; exit 0"), dir, "t",
        Duration.ofSeconds(20), List.of(), new EndMarker(results, List.of("done"), Duration.ofSeconds(10)));

    assertThat(r.stoppedAfterEnd()).isFalse();
    assertThat(r.succeeded()).isTrue();
  }

  @Test
  void withoutItsEndMarkerAProcessRunsToItsTimeout() {
    Path results = dir.resolve("results.log");
    RunResult r = runner.run(List.of("sh", "-c", "echo partial > results.log; sleep 30"), dir, "t",
        Duration.ofMillis(800), List.of(), new EndMarker(results, List.of("done"), Duration.ofMillis(100)));

    assertThat(r.timedOut()).isTrue();
    assertThat(r.stoppedAfterEnd()).isFalse();
  }
}
