package dev.abfleet.worker.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.abfleet.proto.fleet.v1.HostPressure;
import org.junit.jupiter.api.Test;

/** When a boot counts as interfered. */
class QuietThresholdTest {
  static HostPressure cpu(double avg10, long totalUs, long windowMs) {
    return HostPressure.newBuilder().setHasPsi(true).setCpuSomeAvg10(avg10).setCpuSomeTotalUs(totalUs)
        .setWindowMs(windowMs).build();
  }

  @Test
  void interferedWhenCpuAvg10AtTheEndIsAboveTenPercent() {
    assertThat(QuietThreshold.DEFAULT.interfered(cpu(10.01, 0, 10_000))).isTrue();
    assertThat(QuietThreshold.DEFAULT.interfered(cpu(10.0, 0, 10_000))).isFalse();
  }

  @Test
  void interferedWhenTheStallOverTheWholeWindowIsAboveTenPercent() {
    // 10_000 ms window = 10_000_000 us; 11% of it stalled
    assertThat(QuietThreshold.DEFAULT.interfered(cpu(0, 1_100_000, 10_000))).isTrue();
    // exactly 10%
    assertThat(QuietThreshold.DEFAULT.interfered(cpu(0, 1_000_000, 10_000))).isFalse();
  }

  @Test
  void aHostWithoutPsiOrCpuTimesIsNeverInterfered() {
    assertThat(QuietThreshold.DEFAULT.interfered(HostPressure.newBuilder().setWindowMs(10_000).build())).isFalse();
    assertThat(QuietThreshold.DEFAULT.interfered(cpu(50, 9_000_000, 0))).isTrue();
  }

  /** Pressure with the host's and the worker's CPU time: 2 CPUs, a 10 s window = 20,000 CPU ms. */
  static HostPressure busy(double avg10, long hostBusyMs, long workerCpuMs) {
    return cpu(avg10, 0, 10_000).toBuilder().setHostCpus(2).setHostBusyMs(hostBusyMs)
        .setWorkerCpuMs(workerCpuMs).build();
  }

  @Test
  void pressureTheBootMadeItselfIsNotInterference() {
    // A 2-vCPU guest on 2 CPUs: 15% stalled, but the worker and its VM used 18 of the 19 busy s.
    assertThat(QuietThreshold.DEFAULT.interfered(busy(15, 19_000, 18_000))).isFalse();
    // A CPU hog beside it: one CPU's worth (50% of the host) was another process's.
    assertThat(QuietThreshold.DEFAULT.interfered(busy(15, 19_000, 9_000))).isTrue();
    assertThat(QuietThreshold.otherCpuPct(busy(15, 19_000, 9_000))).isCloseTo(50.0, within(1e-9));
  }

  @Test
  void otherProcessesThatMadeNoPressureAreNotInterference() {
    // a busy neighbour on a host with CPUs to spare: nothing waited
    assertThat(QuietThreshold.DEFAULT.interfered(busy(0.5, 19_000, 9_000))).isFalse();
  }

  @Test
  void withoutPsiTheOtherProcessesCpuTimeDecides() {
    HostPressure noPsi = busy(0, 19_000, 9_000).toBuilder().setHasPsi(false).clearCpuSomeAvg10().build();
    assertThat(QuietThreshold.DEFAULT.interfered(noPsi)).isTrue();
    assertThat(QuietThreshold.DEFAULT.interfered(noPsi.toBuilder().setWorkerCpuMs(18_500).build())).isFalse();
  }

  @Test
  void theWorkerPropertySetsThePercent() {
    assertThat(QuietThreshold.of(null)).isEqualTo(QuietThreshold.DEFAULT);
    assertThat(QuietThreshold.of(" 5 ").interfered(cpu(6, 0, 10_000))).isTrue();
    assertThatThrownBy(() -> QuietThreshold.of("lots"))
        .hasMessageContaining("-D" + QuietThreshold.PROPERTY + "=lots").hasMessageContaining("percent");
    assertThatThrownBy(() -> QuietThreshold.of("0")).hasMessageContaining("above 0");
  }

  static dev.abfleet.proto.fleet.v1.RunAssignment run(boolean warmup, dev.abfleet.proto.fleet.v1.HostQuiet quiet) {
    var b = dev.abfleet.proto.fleet.v1.RunAssignment.newBuilder().setRunId("r").setWarmup(warmup);
    return quiet == null ? b.build() : b.setHostQuiet(quiet).build();
  }

  @Test
  void theExperimentsThresholdOverridesTheWorkersOwn() {
    var quiet = dev.abfleet.proto.fleet.v1.HostQuiet.newBuilder().setCpuSomePct(25).build();

    assertThat(QuietThreshold.forRun(run(false, quiet), QuietThreshold.DEFAULT).cpuSomePct()).isEqualTo(25);
    assertThat(QuietThreshold.forRun(run(false, null), new QuietThreshold(5)).cpuSomePct()).isEqualTo(5);
    assertThat(QuietThreshold.forRun(run(false, quiet.toBuilder().setCpuSomePct(0).build()),
        new QuietThreshold(5)).cpuSomePct()).isEqualTo(5);
  }

  @Test
  void onlyMeasuredBootsOfAnExperimentWithThePolicyWait() {
    var quiet = dev.abfleet.proto.fleet.v1.HostQuiet.newBuilder().setMaxWaitS(30).build();

    assertThat(QuietThreshold.maxWaitMs(run(false, quiet))).isEqualTo(30_000);
    assertThat(QuietThreshold.maxWaitMs(run(false, quiet.toBuilder().setMaxWaitS(0).build()))).isEqualTo(60_000);
    assertThat(QuietThreshold.maxWaitMs(run(true, quiet))).isZero();
    assertThat(QuietThreshold.maxWaitMs(run(false, null))).isZero();
  }
}
