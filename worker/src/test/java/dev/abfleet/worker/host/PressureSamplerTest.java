package dev.abfleet.worker.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.abfleet.proto.fleet.v1.HostPressure;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Host pressure over a boot's window from /proc files in the kernel's format. */
class PressureSamplerTest {
  @TempDir Path root;
  final AtomicLong clock = new AtomicLong(10_000);

  @Test
  void readsThePsiSomeLineOfTheKernelsFormat() {
    var psi = PressureSnapshot.Psi.parse(
        "some avg10=18.45 avg60=14.66 avg300=5.68 total=24236155\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");

    assertThat(psi).contains(new PressureSnapshot.Psi(18.45, 24_236_155));
    assertThat(PressureSnapshot.Psi.parse("full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")).isEmpty();
    assertThat(PressureSnapshot.Psi.parse("some avg10=x total=1")).isEmpty();
  }

  @Test
  void measuresStallDeltasLoadAndBusyTimeOverTheWindow() {
    ProcFixture proc = new ProcFixture(root)
        .psi("cpu", 1.50, 1_000_000).psi("io", 0.25, 200)
        .write("proc/loadavg", "0.50 0.40 0.30 1/400 1234\n")
        .write("proc/stat", "cpu  100 20 30 1000 50 5 5 2 0 0\ncpu0 50 10 15 500 25 2 2 1 0 0\n")
        .write("proc/self/stat", selfStat(40, 10, 100, 20));
    PressureSampler sampler = new PressureSampler(root, clock::get);
    PressureSnapshot start = sampler.sample();

    proc.psi("cpu", 12.25, 1_600_000).psi("io", 0.50, 5_200)
        .write("proc/loadavg", "3.25 2.10 1.05 5/412 9876\n")
        .write("proc/stat", "cpu  400 20 130 1500 60 10 10 2 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n"
            + "cpu1 1 1 1 1 1 1 1 1 0 0\n")
        .write("proc/self/stat", selfStat(60, 15, 250, 35));
    clock.set(20_000);
    HostPressure p = PressureSampler.between(start, sampler.sample());

    assertThat(p.getHasPsi()).isTrue();
    assertThat(p.getWindowMs()).isEqualTo(20_000 - 10_000);
    assertThat(p.getCpuSomeAvg10()).isCloseTo(12.25, within(1e-9));
    assertThat(p.getCpuSomeTotalUs()).isEqualTo(1_600_000 - 1_000_000);
    assertThat(p.getIoSomeAvg10()).isCloseTo(0.50, within(1e-9));
    assertThat(p.getIoSomeTotalUs()).isEqualTo(5_200 - 200);
    assertThat(p.getMemorySomeAvg10()).isZero();
    assertThat(p.getMemorySomeTotalUs()).isZero();
    assertThat(p.getLoad1M()).isCloseTo(3.25, within(1e-9));
    assertThat(p.getRunnableTasks()).isEqualTo(5);
    // busy = user + nice + system + irq + softirq + steal, in 10 ms ticks
    long busyStart = 100 + 20 + 30 + 5 + 5 + 2;
    long busyEnd = 400 + 20 + 130 + 10 + 10 + 2;
    assertThat(p.getHostBusyMs()).isEqualTo((busyEnd - busyStart) * 10);
    // the worker's utime + stime + reaped children's cutime + cstime
    assertThat(p.getWorkerCpuMs()).isEqualTo(((60 + 15 + 250 + 35) - (40 + 10 + 100 + 20)) * 10);
    assertThat(p.getHostCpus()).isEqualTo(2);
  }

  @Test
  void aWorkerPinnedToSomeOfTheHostsCpusCountsOnlyTheirBusyTime() {
    // Four CPUs; this worker may run on 2-3 (taskset -c 2-3); a neighbour keeps CPUs 0-1 busy.
    ProcFixture proc = new ProcFixture(root)
        .write("proc/self/status", "Name:\tjava\nCpus_allowed:\tc\nCpus_allowed_list:\t2-3\n")
        .write("proc/stat", stat(0, 0, 10, 10))
        .write("proc/self/stat", selfStat(0, 0, 0, 0));
    PressureSampler sampler = new PressureSampler(root, clock::get);
    PressureSnapshot start = sampler.sample();

    // 10 s: CPUs 0 and 1 fully busy (the neighbour), CPUs 2-3 busy 600 ticks, all of it the worker's VM.
    proc.write("proc/stat", stat(1_000, 1_000, 310, 310)).write("proc/self/stat", selfStat(0, 0, 500, 100));
    clock.addAndGet(10_000);
    HostPressure p = PressureSampler.between(start, sampler.sample());

    assertThat(p.getHostCpus()).isEqualTo(2);
    assertThat(p.getHostBusyMs()).isEqualTo(600 * 10);
    assertThat(QuietThreshold.otherCpuPct(p)).as("the neighbour on CPUs 0-1 is not this worker's").isZero();

    // Unpinned (all four CPUs allowed), the same host reads the neighbour's 2,000 ticks as others.
    proc.write("proc/self/status", "Cpus_allowed_list:\t0-3\n").write("proc/stat", stat(0, 0, 10, 10))
        .write("proc/self/stat", selfStat(0, 0, 0, 0));
    start = sampler.sample();
    proc.write("proc/stat", stat(1_000, 1_000, 310, 310)).write("proc/self/stat", selfStat(0, 0, 500, 100));
    clock.addAndGet(10_000);
    p = PressureSampler.between(start, sampler.sample());
    assertThat(p.getHostCpus()).isEqualTo(4);
    assertThat(QuietThreshold.otherCpuPct(p)).isCloseTo(100.0 * 2_000 * 10 / (10_000 * 4.0), within(1e-9));
  }

  /** /proc/stat with these user ticks per CPU (everything else 0). */
  private static String stat(long... userTicks) {
    StringBuilder s = new StringBuilder("cpu  " + java.util.Arrays.stream(userTicks).sum() + " 0 0 100 0 0 0 0 0 0\n");
    for (int i = 0; i < userTicks.length; i++) {
      s.append("cpu").append(i).append(' ').append(userTicks[i]).append(" 0 0 100 0 0 0 0 0 0\n");
    }
    return s.toString();
  }

  @Test
  void aCommandNameWithSpacesAndParenthesesDoesNotShiftTheFields() {
    assertThat(PressureSnapshot.processTicks(selfStat(1, 2, 3, 4).replace("(java)", "(my (odd) name)"))).isEqualTo(10);
    assertThat(PressureSnapshot.processTicks("1 (java) S 1 2")).isEqualTo(-1);
  }

  /** A /proc/PID/stat line in the kernel's format with these utime, stime, cutime and cstime. */
  static String selfStat(long utime, long stime, long cutime, long cstime) {
    return "4242 (java) S 1 4242 4242 0 -1 4194560 5000 0 0 0 " + utime + " " + stime + " " + cutime + " "
        + cstime + " 20 0 40 0 123456 9000000000 60000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
  }

  @Test
  void missingFilesGiveAnEmptyMeasurementNotAnError() {
    PressureSampler sampler = new PressureSampler(root.resolve("no-such-root"), clock::get);
    PressureSnapshot start = sampler.sample();
    clock.set(12_500);

    HostPressure p = PressureSampler.between(start, sampler.sample());

    assertThat(p.getHasPsi()).isFalse();
    assertThat(p.getCpuSomeAvg10()).isZero();
    assertThat(p.getCpuSomeTotalUs()).isZero();
    assertThat(p.getLoad1M()).isEqualTo(-1);
    assertThat(p.getRunnableTasks()).isZero();
    assertThat(p.getHostBusyMs()).isZero();
    assertThat(p.getWorkerCpuMs()).isZero();
    assertThat(p.getHostCpus()).isZero();
    assertThat(p.getWindowMs()).isEqualTo(2_500);
  }

  @Test
  void aCounterThatWentBackwardsCountsNoStall() {
    new ProcFixture(root).psi("cpu", 0, 5_000);
    PressureSampler sampler = new PressureSampler(root, clock::get);
    PressureSnapshot start = sampler.sample();
    new ProcFixture(root).psi("cpu", 0, 4_000);

    assertThat(PressureSampler.between(start, sampler.sample()).getCpuSomeTotalUs()).isZero();
  }
}
