package dev.abfleet.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** /proc/PID/stat and /proc/PID/status as a controller's process writes them. */
class ProcStatsTest {

  @Test
  void addsUserAndSystemTicksAfterACommandNameWithSpacesAndParentheses() {
    String stat = "4242 (java (ctl) x) S 1 4242 4242 0 -1 4194560 51234 0 12 0 1234 567 0 0 20 0 57 0 8870 "
        + "4000000000 120000 18446744073709551615 1 1 0 0 0 0 0 0 16898 0 0 0 17 1 0 0 0 0 0";
    assertThat(ProcStats.cpuTicks(stat)).isEqualTo(1234 + 567);
  }

  @Test
  void rejectsALineThatIsNotStat() {
    assertThatThrownBy(() -> ProcStats.cpuTicks("hello")).hasMessageContaining("no ')'");
  }

  @Test
  void readsResidentMemory() {
    assertThat(ProcStats.rssKib("Name:\tjava\nVmPeak:\t 9000 kB\nVmRSS:\t  524288 kB\nThreads:\t57\n")).isEqualTo(524288);
    assertThat(ProcStats.rssKib("Name:\tjava\n")).isZero();
  }

  @Test
  void readsThisProcess() throws Exception {
    long pid = ProcessHandle.current().pid();
    assertThat(ProcStats.cpuSeconds(pid)).isPositive();
    assertThat(ProcStats.rssMib(pid)).isPositive();
  }
}
