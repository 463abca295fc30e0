package dev.abfleet.worker;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Facts about this host that go into the worker's Hello. */
public record HostFacts(String arch, int cpus, long memoryMib, String cpuModel, String hostKernel, String os) {

  public static HostFacts probe() {
    return new HostFacts(
        normalizeArch(System.getProperty("os.arch")),
        Runtime.getRuntime().availableProcessors(),
        probeMemoryMib(),
        probeCpuModel(),
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

  private static String probeCpuModel() {
    Path cpuinfo = Path.of("/proc/cpuinfo");
    try {
      if (Files.isReadable(cpuinfo)) {
        for (String line : Files.readAllLines(cpuinfo)) {
          if (line.startsWith("model name") && line.contains(":")) {
            return line.substring(line.indexOf(':') + 1).trim();
          }
        }
      }
    } catch (IOException e) {
      // Fall through: an unknown model only weakens host comparisons.
    }
    return "";
  }
}
