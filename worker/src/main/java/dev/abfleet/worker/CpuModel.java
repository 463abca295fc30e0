package dev.abfleet.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The host's CPU model for the fingerprint ({@code cpu_model}, by which hosts are grouped into
 * classes): pure readers of what each system offers, and the probe that picks one.
 *
 * <ul>
 *   <li>macOS: {@code sysctl -n machdep.cpu.brand_string} ({@code Apple M2 Pro}).</li>
 *   <li>Linux: the first {@code model name} of /proc/cpuinfo (x86). arm64 kernels print none;
 *       the cores' {@code CPU implementer} and {@code CPU part} are named instead
 *       ({@link ArmCpuIds}: {@code ARM Neoverse-N1}; both core types of a big.LITTLE system,
 *       {@code ARM Cortex-A53 + ARM Cortex-A72}).</li>
 *   <li>Else the device tree: {@code /proc/device-tree/model}, or the first entry of
 *       {@code /sys/firmware/devicetree/base/compatible}.</li>
 * </ul>
 * Empty when nothing is known: an unknown model only weakens host comparisons.
 */
public final class CpuModel {

  static final Path CPUINFO = Path.of("/proc/cpuinfo");
  static final Path DT_MODEL = Path.of("/proc/device-tree/model");
  static final Path DT_COMPATIBLE = Path.of("/sys/firmware/devicetree/base/compatible");

  private CpuModel() {}

  /** The model of this host. */
  public static String probe() {
    return probe(System.getProperty("os.name", ""), CpuModel::readSmallFile, CpuModel::sysctlBrandString);
  }

  /**
   * The model from the sources of {@code osName}'s system.
   *
   * @param readFile the text of a file, empty when it is missing or unreadable
   * @param sysctl   the output of {@code sysctl -n machdep.cpu.brand_string}, empty when it failed
   */
  static String probe(String osName, Function<Path, Optional<String>> readFile, Supplier<Optional<String>> sysctl) {
    if (osName.startsWith("Mac")) {
      return sysctl.get().flatMap(CpuModel::fromSysctl).orElse("");
    }
    return readFile.apply(CPUINFO).flatMap(CpuModel::fromProcCpuinfo)
        .or(() -> fromDeviceTree(readFile.apply(DT_MODEL).orElse(""), readFile.apply(DT_COMPATIBLE).orElse("")))
        .orElse("");
  }

  /**
   * The model in the text of /proc/cpuinfo: the first {@code model name}; else the distinct
   * arm64 cores in order of first appearance, joined by {@code " + "}; empty when neither.
   */
  public static Optional<String> fromProcCpuinfo(String cpuinfo) {
    Set<String> cores = new LinkedHashSet<>();
    Integer implementer = null;
    for (String line : cpuinfo.split("\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String key = line.substring(0, colon).strip();
      String value = line.substring(colon + 1).strip();
      switch (key) {
        case "model name" -> {
          if (!value.isEmpty()) {
            return Optional.of(value);
          }
        }
        case "CPU implementer" -> implementer = hex(value);
        case "CPU part" -> {
          Integer part = hex(value);
          if (implementer != null && part != null) {
            cores.add(ArmCpuIds.name(implementer, part));
          }
          implementer = null;
        }
        default -> { }
      }
    }
    return cores.isEmpty() ? Optional.empty() : Optional.of(String.join(" + ", cores));
  }

  /**
   * The model in a device tree: its {@code model} property, else the first entry of its
   * {@code compatible} list (both NUL-terminated strings as the kernel exposes them).
   */
  public static Optional<String> fromDeviceTree(String model, String compatible) {
    String m = firstString(model);
    return m.isEmpty() ? Optional.of(firstString(compatible)).filter(s -> !s.isEmpty()) : Optional.of(m);
  }

  /** The model in the output of {@code sysctl -n machdep.cpu.brand_string}. */
  public static Optional<String> fromSysctl(String output) {
    String s = output.strip();
    return s.isEmpty() ? Optional.empty() : Optional.of(s);
  }

  private static String firstString(String nulTerminated) {
    int nul = nulTerminated.indexOf('\0');
    return (nul >= 0 ? nulTerminated.substring(0, nul) : nulTerminated).strip();
  }

  /** {@code 0x41} as 65; null when it is not a 0x-prefixed hex number. */
  private static Integer hex(String s) {
    if (!s.startsWith("0x") || s.length() < 3 || s.length() > 10) {
      return null;
    }
    try {
      return Integer.parseUnsignedInt(s.substring(2), 16);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** At most 1 MiB of {@code file}; /proc and /sys files report size 0, so it is read, not sized. */
  private static Optional<String> readSmallFile(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return Optional.of(new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> sysctlBrandString() {
    try {
      Process p = new ProcessBuilder("sysctl", "-n", "machdep.cpu.brand_string")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      // One short line: it fits the pipe, so waiting before reading cannot block the child.
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      byte[] out = p.getInputStream().readNBytes(4096);
      return p.exitValue() == 0 ? Optional.of(new String(out, StandardCharsets.UTF_8)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
