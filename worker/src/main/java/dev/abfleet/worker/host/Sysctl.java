package dev.abfleet.worker.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What macOS tells through {@code sysctl -n NAME} where Linux has /proc and /sys: the load
 * average ({@code vm.loadavg}), the CPU counts ({@code hw.logicalcpu}, {@code hw.physicalcpu})
 * and the Darwin release ({@code kern.osrelease}). macOS has no pressure stall information and no
 * per-process CPU times this worker could read without native code, so on a VZ host a boot's
 * pressure is the load alone and never marks it interfered. {@link #NONE} on Linux.
 */
@FunctionalInterface
public interface Sysctl {
  /** Reads nothing: Linux hosts and tests of them. */
  Sysctl NONE = name -> Optional.empty();

  /** The value of {@code name}, stripped; empty when sysctl failed or printed nothing. */
  Optional<String> read(String name);

  /**
   * {@code /usr/sbin/sysctl -n NAME} on this host, at most 2 s per call. Only the load changes
   * while the host runs: every other value is read once and kept.
   */
  static Sysctl system() {
    Map<String, Optional<String>> fixed = new ConcurrentHashMap<>();
    return name -> name.equals("vm.loadavg") ? run(name) : fixed.computeIfAbsent(name, Sysctl::run);
  }

  private static Optional<String> run(String name) {
    try {
      Process p = new ProcessBuilder("/usr/sbin/sysctl", "-n", name)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      p.getOutputStream().close();
      if (!p.waitFor(2, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.exitValue() == 0 && !out.isEmpty() ? Optional.of(out) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * {@code vm.loadavg}'s text ({@code { 1.85 1.92 2.01 }}) as /proc/loadavg's first three
   * fields ({@code 1.85 1.92 2.01}); empty when it is not three numbers.
   */
  static Optional<String> procLoadavg(String vmLoadavg) {
    String inner = vmLoadavg.strip().replace("{", "").replace("}", "").strip();
    String[] f = inner.split("\\s+");
    if (f.length != 3) {
      return Optional.empty();
    }
    for (String n : f) {
      try {
        Double.parseDouble(n);
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    return Optional.of(String.join(" ", f));
  }

  /** A positive integer value of {@code name}; -1 when unknown. */
  default int positiveInt(String name) {
    try {
      int v = Integer.parseInt(read(name).orElse("").strip());
      return v > 0 ? v : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
