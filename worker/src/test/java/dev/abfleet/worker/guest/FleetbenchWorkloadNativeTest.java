package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.process.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fleetbench --workload on this host: the same static binary and event stream a guest produces. */
class FleetbenchWorkloadNativeTest {
  @TempDir static Path cache;
  private static Path binary;
  @TempDir Path tmp;

  @BeforeAll
  static void build() throws Exception {
    binary = new HarnessBuild(cache, HarnessBuild.HOST_COMPILER).ensureBinary();
  }

  private ParsedRun workload(String command, String... extra) throws Exception {
    Path runFile = Files.writeString(tmp.resolve("run"), command);
    Path out = tmp.resolve("results.jsonl");
    List<String> argv = new ArrayList<>(List.of(binary.toString(), "--out", out.toString(),
        "--dir", tmp.resolve("bench").toString(), "--workload", runFile.toString()));
    argv.addAll(List.of(extra));
    RunResult r = new ProcessRunner().run(argv, tmp, "fleetbench", Duration.ofSeconds(30));
    assertThat(r.timedOut()).isFalse();
    return GuestProtocol.parse(Files.readAllBytes(out));
  }

  @Test
  void forwardsEachStdoutLineInsideAnEventThenTheEndTelemetryAndDone() throws Exception {
    ParsedRun run = workload("echo 'BenchmarkX-2  10  5 ns/op'; printf 'a\\tb\"c\\\\\\n'; echo to-console >&2;"
        + " printf 'no newline'");

    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.start()).isPresent();
    assertThat(run.workloadLines()).extracting(WorkloadLine::text)
        .containsExactly("BenchmarkX-2  10  5 ns/op", "a\tb\"c\\", "no newline");
    assertThat(run.workloadEnd()).hasValueSatisfying(e -> {
      assertThat(e.succeeded()).isTrue();
      assertThat(e.timeoutS()).isEqualTo(600);
      assertThat(e.elapsedMs()).isNotNegative();
    });
    assertThat(run.counters()).singleElement().satisfies(c -> {
      assertThat(c.metric()).isEqualTo("workload");
      assertThat(c.work()).isEqualTo(1.0);
      assertThat(c.workUnit()).isEqualTo("run");
      assertThat(c.contextSwitches()).isPositive();
    });
    assertThat(run.done()).isTrue();
  }

  @Test
  void runsTheCommandInTheBenchmarkDirectoryWithStdinEmpty() throws Exception {
    ParsedRun run = workload("pwd; cat; echo read-nothing");

    assertThat(run.workloadLines()).extracting(WorkloadLine::text)
        .containsExactly(tmp.resolve("bench").toRealPath().toString(), "read-nothing");
  }

  @Test
  void reportsTheExitStatusOfAFailingCommand() throws Exception {
    ParsedRun run = workload("echo 'not a result'; exit 3");

    assertThat(run.workloadEnd()).hasValueSatisfying(e -> {
      assertThat(e.exitStatus()).isEqualTo(3);
      assertThat(e.succeeded()).isFalse();
    });
    assertThat(run.done()).isTrue();
  }

  @Test
  void killsTheWholeProcessGroupAtTheTimeout() throws Exception {
    long start = System.nanoTime();

    ParsedRun run = workload("sleep 20 & echo started; sleep 20", "--workload-timeout", "1");

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(run.workloadEnd()).hasValueSatisfying(e -> {
      assertThat(e.timedOut()).isTrue();
      assertThat(e.signal()).isEqualTo(9);
      assertThat(e.timeoutS()).isEqualTo(1);
    });
    assertThat(run.workloadLines()).extracting(WorkloadLine::text).containsExactly("started");
  }

  @Test
  void stopsAFloodBelowTheResultsCap() throws Exception {
    ParsedRun run = workload("while :; do echo flooding-the-channel; done");

    assertThat(run.workloadEnd()).hasValueSatisfying(e -> assertThat(e.flooded()).isTrue());
    assertThat(Files.size(tmp.resolve("results.jsonl"))).isLessThan(600 * 1024);
    assertThat(run.done()).isTrue();
  }

  @Test
  void cutsAnOverlongLineAndSaysSo() throws Exception {
    ParsedRun run = workload("head -c 10000 /dev/zero | tr '\\0' x; echo; echo next");

    assertThat(run.workloadLines()).hasSize(2);
    assertThat(run.workloadLines().get(0).cut()).isTrue();
    assertThat(run.workloadLines().get(0).text()).hasSize(4096);
    assertThat(run.workloadLines().get(1)).extracting(WorkloadLine::text, WorkloadLine::cut)
        .containsExactly("next", false);
  }

  @Test
  void anEmptyCommandIsAnErrorEvent() throws Exception {
    ParsedRun run = workload(" \n");

    assertThat(run.harnessErrors()).singleElement().satisfies(e -> {
      assertThat(e.metric()).isEqualTo("workload");
      assertThat(e.message()).contains("the command is empty");
    });
    assertThat(run.workloadEnd()).isEmpty();
  }
}
