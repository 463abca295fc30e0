package dev.abfleet.worker;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/** Facts about this host that go into the worker's Hello. */
public record HostFacts(String arch, int cpus, long memoryMib, String cpuModel, String hostKernel, String os) {

  public static HostFacts probe() {
    return new HostFacts(
        normalizeArch(System.getProperty("os.arch")),
        Runtime.getRuntime().availableProcessors(),
        probeMemoryMib(),
        CpuModel.probe(),
        System.getProperty("os.version", ""),
        System.getProperty("os.name", ""));
  }

  /** Java's os.arch to the names guests and fleet.yaml use: x86_64, aarch64. */
  public static String normalizeArch(String javaArch) {
    String a = javaArch == null ? "" : javaArch.toLowerCase(Locale.ROOT);
    return switch (a) {
      case "amd64", "x86_64", "x64" -> "x86_64";
      case "aarch64", "arm64" -> "aarch64";
      default -> a;
    };
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
