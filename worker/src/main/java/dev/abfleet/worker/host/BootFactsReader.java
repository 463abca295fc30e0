package dev.abfleet.worker.host;

import dev.abfleet.proto.fleet.v1.BootHostFacts;
import dev.abfleet.worker.HostFacts;
import dev.abfleet.worker.vm.qemu.CpuList;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host facts a boot's figures depend on, read for each boot from a root ({@code /}, or a
 * fixture directory): the probed {@link HostFacts} (CPU model, kernel, memory) and hypervisor
 * versions, plus what can change between boots (microcode after a late load, SMT, cpufreq
 * governor, boost, THP, the CPUs the worker may run on). Unreadable files leave their field empty.
 */
public final class BootFactsReader {
  private static final Pattern MICROCODE = Pattern.compile("(?m)^microcode\\s*:\\s*(\\S+)");
  private static final Pattern BRACKETED = Pattern.compile("\\[([^\\]]+)\\]");

  private final ProcFiles files;
  private final HostFacts host;
  private final Map<String, String> hypervisorVersions;
  private final Sysctl sysctl;

  /** @param hypervisorVersions hypervisor name ("qemu") -> its version, as Hello reports them */
  public BootFactsReader(Path root, HostFacts host, Map<String, String> hypervisorVersions) {
    this(root, host, hypervisorVersions, Sysctl.NONE);
  }

  /**
   * As above; where /proc and /sys are missing (macOS), the Darwin release ({@code kern.osrelease})
   * and SMT ({@code hw.logicalcpu} above {@code hw.physicalcpu}) from {@code sysctl}. macOS has no
   * microcode revision, cpufreq governor, boost switch, THP or cpuset to read: those stay empty.
   */
  public BootFactsReader(Path root, HostFacts host, Map<String, String> hypervisorVersions, Sysctl sysctl) {
    this.files = new ProcFiles(root);
    this.host = host;
    this.hypervisorVersions = Map.copyOf(hypervisorVersions);
    this.sysctl = sysctl;
  }

  /** The facts now, for a boot on {@code hypervisor}. */
  public BootHostFacts read(String hypervisor) {
    return BootHostFacts.newBuilder()
        .setHypervisorVersion(hypervisorVersions.getOrDefault(hypervisor, ""))
        .setHostKernel(orElse(files.firstLine("proc/sys/kernel/osrelease"),
            orElse(sysctl.read("kern.osrelease").orElse(""), host.hostKernel())))
        .setCpuModel(host.cpuModel())
        .setMicrocode(files.read("proc/cpuinfo").map(BootFactsReader::microcode).orElse(""))
        .setSmt(orElse(onOff(files.firstLine("sys/devices/system/cpu/smt/active"), "1"), sysctlSmt()))
        .setCpufreqGovernor(files.firstLine("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"))
        .setBoost(boost())
        .setThp(bracketed(files.firstLine("sys/kernel/mm/transparent_hugepage/enabled")))
        .setMemoryMib(host.memoryMib())
        .setWorkerCpus(workerCpus())
        .build();
  }

  /**
   * The CPUs the worker (and so its VMs) may run on: its own affinity (Cpus_allowed_list, which a
   * cgroup cpuset and taskset both narrow), else the root cgroup's effective cpuset, else the
   * online CPUs.
   */
  private String workerCpus() {
    String own = files.read("proc/self/status").map(CpuList::allowedList).orElse("");
    return orElse(own, orElse(files.firstLine("sys/fs/cgroup/cpuset.cpus.effective"),
        files.firstLine("sys/devices/system/cpu/online")));
  }

  /** The first microcode revision in /proc/cpuinfo's text; empty when it names none (arm64). */
  static String microcode(String cpuinfo) {
    Matcher m = MICROCODE.matcher(cpuinfo);
    return m.find() ? m.group(1) : "";
  }

  /** The selected value of a sysfs choice ({@code always [madvise] never} -> madvise); empty when none. */
  static String bracketed(String choices) {
    Matcher m = BRACKETED.matcher(choices);
    return m.find() ? m.group(1) : "";
  }

  /** "on" when sysctl counts more logical than physical CPUs, "off" when as many; empty when unknown. */
  private String sysctlSmt() {
    int logical = sysctl.positiveInt("hw.logicalcpu");
    int physical = sysctl.positiveInt("hw.physicalcpu");
    return logical < 0 || physical < 0 ? "" : logical > physical ? "on" : "off";
  }

  /** cpufreq/boost (1 = on) or, on intel_pstate, no_turbo (1 = off). */
  private String boost() {
    String boost = files.firstLine("sys/devices/system/cpu/cpufreq/boost");
    if (!boost.isEmpty()) {
      return onOff(boost, "1");
    }
    return onOff(files.firstLine("sys/devices/system/cpu/intel_pstate/no_turbo"), "0");
  }

  private static String onOff(String value, String on) {
    return value.isEmpty() ? "" : value.equals(on) ? "on" : "off";
  }

  private static String orElse(String value, String fallback) {
    return value.isEmpty() ? fallback : value;
  }
}
