package dev.abfleet.worker.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BootHostFacts;
import dev.abfleet.proto.fleet.v1.HostPressure;
import dev.abfleet.worker.HostFacts;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A macOS host as the worker sees it: no /proc or /sys (an empty root), sysctl values as an
 * Apple M2 Pro (12 cores, no SMT) and an Intel Mac (SMT) print them. Checked against the
 * documented formats; not run on macOS here.
 */
class MacHostReadingsTest {
  static final HostFacts MAC = new HostFacts("aarch64", 12, 32_768, "Apple M2 Pro", "14.2.1", "Mac OS X");

  @TempDir Path root;

  static Sysctl sysctl(Map<String, String> values) {
    return name -> Optional.ofNullable(values.get(name));
  }

  static final Sysctl M2 = sysctl(Map.of("vm.loadavg", "{ 2.37 1.98 1.75 }", "hw.logicalcpu", "12",
      "hw.physicalcpu", "12", "kern.osrelease", "23.2.0"));

  @Test
  void theLoadAndTheCpusComeFromSysctlAndNeverMarkABootInterfered() {
    long[] now = {1_000};
    PressureSampler sampler = new PressureSampler(root, () -> now[0], M2);

    PressureSnapshot start = sampler.sample();
    now[0] += 5_000;
    HostPressure p = PressureSampler.between(start, sampler.sample());

    assertThat(p.getLoad1M()).isEqualTo(2.37);
    assertThat(p.getHostCpus()).isEqualTo(12);
    assertThat(p.getWindowMs()).isEqualTo(5_000);
    assertThat(p.getHasPsi()).isFalse();
    assertThat(p.getHostBusyMs()).isZero();
    assertThat(QuietThreshold.DEFAULT.interfered(p)).isFalse();
  }

  @Test
  void factsTakeTheDarwinReleaseAndSmtFromSysctlAndLeaveLinuxOnlyFactsEmpty() {
    BootHostFacts m2 = new BootFactsReader(root, MAC, Map.of("vz", "vfkit version: 0.5.1"), M2).read("vz");

    assertThat(m2.getHypervisorVersion()).isEqualTo("vfkit version: 0.5.1");
    assertThat(m2.getHostKernel()).isEqualTo("23.2.0");
    assertThat(m2.getCpuModel()).isEqualTo("Apple M2 Pro");
    assertThat(m2.getSmt()).isEqualTo("off");
    assertThat(m2.getMemoryMib()).isEqualTo(32_768);
    assertThat(m2.getMicrocode()).isEmpty();
    assertThat(m2.getCpufreqGovernor()).isEmpty();
    assertThat(m2.getBoost()).isEmpty();
    assertThat(m2.getThp()).isEmpty();

    Sysctl intel = sysctl(Map.of("hw.logicalcpu", "16", "hw.physicalcpu", "8"));
    assertThat(new BootFactsReader(root, MAC, Map.of(), intel).read("vz").getSmt()).isEqualTo("on");
    // sysctl failed: the probed release stands, SMT unknown
    BootHostFacts none = new BootFactsReader(root, MAC, Map.of(), Sysctl.NONE).read("vz");
    assertThat(none.getHostKernel()).isEqualTo("14.2.1");
    assertThat(none.getSmt()).isEmpty();
  }

  @Test
  void vmLoadavgReadsOnlyAsThreeNumbers() {
    assertThat(Sysctl.procLoadavg("{ 2.37 1.98 1.75 }")).contains("2.37 1.98 1.75");
    assertThat(Sysctl.procLoadavg("{ 0,52 0,58 0,59 }")).isEmpty();
    assertThat(Sysctl.procLoadavg("")).isEmpty();
    assertThat(sysctl(Map.of("hw.logicalcpu", "zero")).positiveInt("hw.logicalcpu")).isEqualTo(-1);
  }

  @Test
  void linuxHostsKeepReadingProc() {
    new ProcFixture(root).write("proc/loadavg", "0.52 0.58 0.59 3/163 4567\n");
    PressureSnapshot s = new PressureSampler(root, () -> 0, M2).sample();
    assertThat(s.load1m()).isEqualTo(0.52);
    assertThat(s.runnable()).isEqualTo(3);
  }
}
