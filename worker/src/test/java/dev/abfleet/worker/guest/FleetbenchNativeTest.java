package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.worker.process.ProcessRunner;
import dev.abfleet.worker.process.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real harness on this (x86_64 Linux) host, the same static binary a guest runs. */
class FleetbenchNativeTest {

  private static final List<String> ALL_METRICS =
      List.of("metadata_stat", "negative_lookup", "create_delete", "seq_read", "find_recursive",
          "rm_rf");

  @TempDir static Path cache;
  private static Path binary;
  @TempDir Path tmp;

  @BeforeAll
  static void build() throws Exception {
    binary = new HarnessBuild(cache, HarnessBuild.HOST_COMPILER).ensureBinary();
  }

  private RunResult fleetbench(String... args) {
    List<String> argv = new ArrayList<>(List.of(binary.toString()));
    argv.addAll(List.of(args));
    return new ProcessRunner().run(argv, tmp, "fleetbench", Duration.ofSeconds(30));
  }

  @Test
  void measuresEveryMetricWithPositiveValuesBetweenStartAndDone() throws Exception {
    Path out = tmp.resolve("results.jsonl");

    RunResult r = fleetbench("--out", out.toString(), "--dir", tmp.resolve("bench").toString(),
        "--iterations", "2", "--iteration-ms", "20");

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(out));
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.harnessErrors()).isEmpty();
    assertThat(run.start()).hasValueSatisfying(s -> {
      assertThat(s.harness()).isEqualTo("fleetbench");
      assertThat(s.arch()).isEqualTo("x86_64");
      assertThat(s.uptimeMs()).isPresent();
    });
    assertThat(run.done()).isTrue();
    Map<String, List<Double>> values = run.measuredSamples().stream().collect(Collectors.groupingBy(
        GuestSample::metric, Collectors.mapping(GuestSample::value, Collectors.toList())));
    assertThat(values.keySet()).containsExactlyInAnyOrderElementsOf(ALL_METRICS);
    values.forEach((metric, v) -> assertThat(v).as(metric).hasSize(2).allMatch(x -> x > 0));
  }

  @Test
  void countsInterruptsAndContextSwitchesOverEachMetricsMeasuredIterations() throws Exception {
    Path out = tmp.resolve("results.jsonl");

    // The counters are the whole kernel's (/proc/stat), and a harness that never blocks on an
    // otherwise idle host may see no switch at all in 40 ms: a thread that sleeps 1 ms at a time
    // switches about 80 times in that window, so a counter that works cannot read zero.
    RunResult r;
    Thread sleeper = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "switch-source");
    sleeper.setDaemon(true);
    sleeper.start();
    try {
      r = fleetbench("--out", out.toString(), "--dir", tmp.resolve("bench").toString(),
          "--iterations", "2", "--iteration-ms", "20", "--warmup", "1", "--files", "300");
    } finally {
      sleeper.interrupt();
      sleeper.join();
    }

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(out));
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.counters()).extracting(GuestCounters::metric)
        .containsExactlyElementsOf(ALL_METRICS);
    for (GuestCounters c : run.counters()) {
      assertThat(c.work()).as(c.metric()).isPositive();
      assertThat(c.workUnit()).as(c.metric()).isEqualTo(c.metric().equals("seq_read") ? "MiB" : "ops");
      assertThat(c.contextSwitches()).as(c.metric()).isPositive();
      assertThat(c.interruptsTotal()).as(c.metric()).isNotNegative();
    }
    // The timer ticks during 40 ms of work on any CPU: the local timer row (LOC) moves.
    assertThat(run.counters()).anySatisfy(c -> assertThat(c.interrupts()).isNotEmpty());
  }

  @Test
  void walksAndRemovesATreeOfTheRequestedSize() throws Exception {
    Path out = tmp.resolve("results.jsonl");

    RunResult r = fleetbench("--out", out.toString(), "--dir", tmp.resolve("bench").toString(),
        "--metrics", "find_recursive,rm_rf", "--iterations", "2", "--iteration-ms", "5",
        "--files", "100", "--threads", "1");

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(out));
    // 100 files in 5 leaf directories under 1 parent, and the root: 107 entries per removal.
    assertThat(run.counters()).filteredOn(c -> c.metric().equals("rm_rf")).singleElement()
        .extracting(GuestCounters::work).isEqualTo(2 * 107.0);
    assertThat(run.counters()).filteredOn(c -> c.metric().equals("find_recursive"))
        .singleElement().satisfies(c -> assertThat(c.work() % 106).isZero());
    assertThat(tmp.resolve("bench").resolve("t0").resolve("fleetbench-tree")).doesNotExist();
  }

  @Test
  void runsEachMetricOnTwoThreadsAndReportsEachThreadsRate() throws Exception {
    Path out = tmp.resolve("results.jsonl");

    RunResult r = fleetbench("--out", out.toString(), "--dir", tmp.resolve("bench").toString(),
        "--metrics", "metadata_stat,rm_rf", "--iterations", "2", "--iteration-ms", "20",
        "--files", "100", "--threads", "2");

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(out));
    assertThat(run.parseErrors()).isEmpty();
    assertThat(run.measuredSamples()).hasSize(4).allMatch(s -> s.value() > 0);
    assertThat(run.counters()).hasSize(2).allSatisfy(c ->
        assertThat(c.threadRates()).as(c.metric()).hasSize(2).allMatch(x -> x > 0));
    // The 100 files split 50 + 50: each thread's tree is 50 files in 3 leaves under 1 parent,
    // and its root: 55 entries, 110 per iteration for both threads.
    assertThat(run.counters()).filteredOn(c -> c.metric().equals("rm_rf")).singleElement()
        .extracting(GuestCounters::work).isEqualTo(2 * 110.0);
    assertThat(tmp.resolve("bench").resolve("t0").resolve("fleetbench-meta")).isDirectory();
    assertThat(tmp.resolve("bench").resolve("t1").resolve("fleetbench-meta")).isDirectory();
  }

  @Test
  void runsOneThreadPerOnlineCpuByDefault() throws Exception {
    Path out = tmp.resolve("results.jsonl");

    RunResult r = fleetbench("--out", out.toString(), "--dir", tmp.resolve("bench").toString(),
        "--metrics", "negative_lookup", "--iterations", "1", "--iteration-ms", "5");

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    assertThat(GuestProtocol.parse(Files.readAllBytes(out)).counters()).singleElement()
        .satisfies(c -> assertThat(c.threadRates()).hasSize(onlineCpus()));
  }

  @Test
  void writesEachThreadsSeqFileAndMetadataFilesInTheRequestedSizes() throws Exception {
    Path out = tmp.resolve("results.jsonl");
    Path bench = tmp.resolve("bench");

    RunResult r = fleetbench("--out", out.toString(), "--dir", bench.toString(),
        "--metrics", "seq_read,metadata_stat", "--iterations", "1", "--iteration-ms", "5",
        "--threads", "2", "--seq-size", "2", "--file-size", "100");

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    for (String t : List.of("t0", "t1")) {
      assertThat(Files.size(bench.resolve(t).resolve("fleetbench-seq.dat"))).isEqualTo(2L << 20);
      assertThat(Files.size(bench.resolve(t).resolve("fleetbench-meta").resolve("f00255"))).isEqualTo(100);
    }
  }

  @Test
  void reportsInterruptRowsPerCpuThatAddUpToTheSummedRows() throws Exception {
    Path out = tmp.resolve("results.jsonl");

    RunResult r = fleetbench("--out", out.toString(), "--dir", tmp.resolve("bench").toString(),
        "--metrics", "metadata_stat,create_delete", "--iterations", "2", "--iteration-ms", "40",
        "--threads", "2");

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    int cpus = onlineCpus();
    List<GuestCounters> counters = GuestProtocol.parse(Files.readAllBytes(out)).counters();
    assertThat(counters).hasSize(2).allSatisfy(c -> {
      assertThat(c.interrupts().keySet()).containsAll(c.interruptsPerCpu().keySet());
      c.interruptsPerCpu().forEach((row, counts) -> {
        assertThat(counts).as(row).hasSize(cpus);
        assertThat(counts.stream().mapToLong(Long::longValue).sum()).as(row).isEqualTo(c.interrupts().get(row));
      });
      c.softirqsPerCpu().forEach((row, counts) -> assertThat(counts).as(row).hasSize(cpus)
          .anyMatch(n -> n > 0));
      // This build host's kernel has no schedstat; a guest kernel with it reports one count per CPU.
      assertThat(c.wakeupsPerCpu()).hasSize(Files.exists(Path.of("/proc/schedstat")) ? cpus : 0);
    });
    // The timer ticks during 80 ms of work: the local timer row moves, on some CPU.
    assertThat(counters).anySatisfy(c -> assertThat(c.interruptsPerCpu()).isNotEmpty());
  }

  /**
   * The per-CPU parsers on captures: /proc/interrupts of a KVM guest (RES split over 2 CPUs, ERR
   * with one column and so no split), /proc/softirqs of this build host, and a /proc/schedstat
   * written in the layout of kernel 6.1's show_schedstat (version 15; ttwu_count is the fifth
   * number after cpuN).
   */
  @Test
  void readsInterruptSoftirqAndWakeupCountsPerCpuFromCaptures() throws Exception {
    Path dir = Path.of(getClass().getResource("/percpu/x86_64").toURI());

    RunResult r = fleetbench("--dump-per-cpu", dir.toString());

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.stdoutTail().trim());
    assertThat(json.get("cpus").asInt()).isEqualTo(2);
    assertThat(json.at("/interrupts_per_cpu/RES").toString()).isEqualTo("[312957,278306]");
    assertThat(json.at("/interrupts_per_cpu/virtio1-req.0").toString()).isEqualTo("[0,194625]");
    assertThat(json.get("interrupts_per_cpu").has("ERR")).isFalse();
    assertThat(json.at("/softirqs_per_cpu/SCHED").toString()).isEqualTo("[762769,773602]");
    assertThat(json.at("/softirqs_per_cpu/RCU").toString()).isEqualTo("[1187145,1561042]");
    assertThat(json.get("wakeups_per_cpu").toString()).isEqualTo("[51349,47112]");
  }

  @Test
  void leavesOutWhatTheKernelDoesNotProvideAndSchedstatBeforeVersion15() throws Exception {
    Path dir = Path.of(getClass().getResource("/percpu/old-schedstat").toURI());

    RunResult r = fleetbench("--dump-per-cpu", dir.toString());

    assertThat(r.exitCode()).as(r.outputTail()).isZero();
    assertThat(r.stdoutTail().trim()).isEqualTo("{\"cpus\":0}");
  }

  @Test
  void rejectsMoreThreadsThanItRunsWithExitCode2() throws Exception {
    RunResult r = fleetbench("--threads", "257");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.outputTail()).contains("--threads must be an integer in 0..256, got '257'");
  }

  /** CPU columns of /proc/interrupts: the CPUs online, as the harness counts them. */
  private static int onlineCpus() throws Exception {
    String header = Files.readAllLines(Path.of("/proc/interrupts")).get(0);
    return header.split("CPU", -1).length - 1;
  }

  /**
   * The interrupt-row parser on real captures: x86_64 is this build host's own /proc/interrupts
   * (a KVM guest with virtio PCI devices, 2 CPUs); aarch64 is Debian's 6.1 arm64 cloud kernel in
   * QEMU's virt machine under TCG with 2 vCPUs (GIC rows, IPIn rows, a one-column Err row).
   */
  @Test
  void sumsEachInterruptRowOverCpusOnX86AndArm64Captures() throws Exception {
    Path x86 = Path.of(getClass().getResource("/interrupts/x86_64-kvm-host.txt").toURI());
    Path arm = Path.of(getClass().getResource("/interrupts/aarch64-virt.txt").toURI());

    RunResult rx = fleetbench("--dump-interrupts", x86.toString());
    RunResult ra = fleetbench("--dump-interrupts", arm.toString());

    assertThat(rx.exitCode()).as(rx.outputTail()).isZero();
    var xRows = new com.fasterxml.jackson.databind.ObjectMapper().readTree(rx.stdoutTail().trim());
    assertThat(xRows.get("RES").asLong()).isEqualTo(312957L + 278306L);
    assertThat(xRows.get("LOC").asLong()).isEqualTo(1858362L + 1841868L);
    assertThat(xRows.get("virtio1-req.0").asLong()).isEqualTo(194625L);
    assertThat(xRows.get("ERR").asLong()).isZero();
    var aRows = new com.fasterxml.jackson.databind.ObjectMapper().readTree(ra.stdoutTail().trim());
    assertThat(aRows.get("IPI0").asLong()).isEqualTo(16 + 42);
    assertThat(aRows.get("IPI1").asLong()).isEqualTo(273 + 249);
    assertThat(aRows.get("arch_timer").asLong()).isEqualTo(1053 + 1675);
    assertThat(aRows.get("uart-pl011").asLong()).isZero();
    assertThat(aRows.get("Err").asLong()).isZero();
    assertThat(aRows.has("11")).isFalse();
  }

  @Test
  void rejectsAnUnknownCacheModeWithExitCode2() throws Exception {
    RunResult r = fleetbench("--cache", "lukewarm");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.outputTail()).contains("--cache must be warm or cold, got 'lukewarm'");
  }

  @Test
  void reportsSeqReadInMebibytesPerSecond() throws Exception {
    Path out = tmp.resolve("results.jsonl");

    fleetbench("--out", out.toString(), "--dir", tmp.toString(), "--metrics", "seq_read",
        "--iterations", "1", "--iteration-ms", "10");

    assertThat(GuestProtocol.parse(Files.readAllBytes(out)).samples())
        .singleElement().extracting(GuestSample::unit).isEqualTo("MiB/s");
  }

  @Test
  void numbersWarmupIterationsBeforeTheMeasuredOnes() throws Exception {
    Path out = tmp.resolve("results.jsonl");

    fleetbench("--out", out.toString(), "--dir", tmp.toString(), "--metrics", "metadata_stat",
        "--warmup", "2", "--iterations", "1", "--iteration-ms", "5");

    assertThat(GuestProtocol.parse(Files.readAllBytes(out)).samples())
        .extracting(GuestSample::iteration, GuestSample::warmup)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, true),
            org.assertj.core.groups.Tuple.tuple(1, true),
            org.assertj.core.groups.Tuple.tuple(2, false));
  }

  @Test
  void reportsAnErrorEventPerMetricAndExitsNonZeroWhenTheDirIsUnusable() throws Exception {
    Path file = Files.writeString(tmp.resolve("plain-file"), "x");
    Path out = tmp.resolve("results.jsonl");

    RunResult r = fleetbench("--out", out.toString(), "--dir", file.resolve("sub").toString(),
        "--iterations", "1", "--iteration-ms", "5");

    assertThat(r.exitCode()).isEqualTo(1);
    ParsedRun run = GuestProtocol.parse(Files.readAllBytes(out));
    assertThat(run.harnessErrors()).extracting(HarnessError::metric)
        .containsExactlyElementsOf(ALL_METRICS);
    assertThat(run.harnessErrors().get(0).message()).contains("Not a directory");
    assertThat(run.done()).isTrue();
    assertThat(run.samples()).isEmpty();
  }

  @Test
  void rejectsZeroIterationsWithExitCode2AndAMessage() throws Exception {
    RunResult r = fleetbench("--iterations", "0");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.outputTail()).contains("--iterations must be an integer in 1..100000, got '0'");
  }

  @Test
  void rejectsAnUnknownMetricWithExitCode2() throws Exception {
    RunResult r = fleetbench("--metrics", "metadata_stat,fsync");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.outputTail()).contains("unknown metric 'fsync'");
  }

  @Test
  void rejectsAnUnknownOptionWithExitCode2() throws Exception {
    RunResult r = fleetbench("--iterations=3", "--turbo");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.outputTail()).contains("unknown option '--turbo'");
  }

  @Test
  void exitsNonZeroWhenAResultsLineCouldNotBeWritten() throws Exception {
    RunResult r = fleetbench("--out", "/dev/full", "--dir", tmp.resolve("bench").toString(),
        "--metrics", "metadata_stat", "--iterations", "1", "--iteration-ms", "5");

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.outputTail()).contains("writing results failed");
  }
}
