package dev.abfleet.worker.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BootHostFacts;
import dev.abfleet.worker.HostFacts;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host facts a boot records, from /proc and /sys files. */
class BootFactsReaderTest {
  static final HostFacts HOST = new HostFacts("x86_64", 4, 15_906, "AMD EPYC 7B13", "6.1.0-probed", "Linux");
  static final Map<String, String> VERSIONS = Map.of("qemu", "QEMU emulator version 8.2.2");

  @TempDir Path root;

  @Test
  void readsKernelMicrocodeSmtGovernorBoostThpAndCpuset() {
    new ProcFixture(root)
        .write("proc/sys/kernel/osrelease", "6.8.0-45-generic\n")
        .write("proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nmicrocode\t: 0xa0011d1\n\n"
            + "processor\t: 1\nmicrocode\t: 0xa0011d1\n")
        .write("sys/devices/system/cpu/smt/active", "1\n")
        .write("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "schedutil\n")
        .write("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n")
        .write("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n")
        .write("sys/fs/cgroup/cpuset.cpus.effective", "0-1\n")
        .write("sys/devices/system/cpu/online", "0-3\n");

    BootHostFacts f = new BootFactsReader(root, HOST, VERSIONS).read("qemu");

    assertThat(f.getHypervisorVersion()).isEqualTo("QEMU emulator version 8.2.2");
    assertThat(f.getHostKernel()).isEqualTo("6.8.0-45-generic");
    assertThat(f.getCpuModel()).isEqualTo("AMD EPYC 7B13");
    assertThat(f.getMicrocode()).isEqualTo("0xa0011d1");
    assertThat(f.getSmt()).isEqualTo("on");
    assertThat(f.getCpufreqGovernor()).isEqualTo("schedutil");
    assertThat(f.getBoost()).isEqualTo("off");
    assertThat(f.getThp()).isEqualTo("madvise");
    assertThat(f.getMemoryMib()).isEqualTo(15_906);
    assertThat(f.getWorkerCpus()).isEqualTo("0-1");
  }

  @Test
  void theWorkersOwnAffinityWinsOverTheRootCgroupsCpuset() {
    new ProcFixture(root)
        .write("proc/self/status", "Name:\tjava\nCpus_allowed:\t0c\nCpus_allowed_list:\t2-3\nMems_allowed_list:\t0\n")
        .write("sys/fs/cgroup/cpuset.cpus.effective", "0-7\n")
        .write("sys/devices/system/cpu/online", "0-7\n");

    assertThat(new BootFactsReader(root, HOST, VERSIONS).read("qemu").getWorkerCpus()).isEqualTo("2-3");
  }

  @Test
  void cpufreqBoostWinsOverIntelPstateAndOnlineCpusStandInForACpuset() {
    new ProcFixture(root)
        .write("sys/devices/system/cpu/cpufreq/boost", "1\n")
        .write("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n")
        .write("sys/devices/system/cpu/smt/active", "0\n")
        .write("sys/devices/system/cpu/online", "0-3\n");

    BootHostFacts f = new BootFactsReader(root, HOST, VERSIONS).read("qemu");

    assertThat(f.getBoost()).isEqualTo("on");
    assertThat(f.getSmt()).isEqualTo("off");
    assertThat(f.getWorkerCpus()).isEqualTo("0-3");
  }

  @Test
  void aHostWithoutProcOrSysKeepsOnlyWhatWasProbed() {
    BootHostFacts f = new BootFactsReader(root.resolve("none"), HOST, Map.of()).read("vz");

    assertThat(f.getHypervisorVersion()).isEmpty();
    assertThat(f.getHostKernel()).isEqualTo("6.1.0-probed");
    assertThat(f.getMicrocode()).isEmpty();
    assertThat(f.getSmt()).isEmpty();
    assertThat(f.getCpufreqGovernor()).isEmpty();
    assertThat(f.getBoost()).isEmpty();
    assertThat(f.getThp()).isEmpty();
    assertThat(f.getWorkerCpus()).isEmpty();
  }
}
