package dev.abfleet.worker;

import dev.abfleet.model.Arch;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/** Facts about this host that go into the worker's Hello. */
public record HostFacts(String arch, int cpus, long memoryMib, String cpuModel, String hostKernel, String os) {

  public static HostFacts probe() {
    return new HostFacts(
        Arch.host(),
        Runtime.getRuntime().availableProcessors(),
        probeMemoryMib(),
        CpuModel.probe(),
        System.getProperty("os.version", ""),
        System.getProperty("os.name", ""));
  }

  public boolean isMac() {
    return os.toLowerCase(Locale.ROOT).contains("mac");
  }

  private static long probeMemoryMib() {
    var bean = ManagementFactory.getOperatingSystemMXBean();
    if (bean instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getTotalMemorySize() / (1024 * 1024);
    }
    return 0;
  }
}
