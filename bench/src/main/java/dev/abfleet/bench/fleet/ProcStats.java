package dev.abfleet.bench.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time and resident memory of a Linux process, from {@code /proc/PID/stat} and
 * {@code /proc/PID/status}.
 */
public final class ProcStats {
  /** Clock ticks per second of /proc/PID/stat's times (USER_HZ); 100 on every Linux ABI in use. */
  public static final int TICKS_PER_SECOND = 100;

  private ProcStats() {}

  /**
   * utime + stime of a {@code /proc/PID/stat} line, in clock ticks. The command name (field 2)
   * is in parentheses and may hold spaces or parentheses, so fields are counted after its last ')'.
   */
  public static long cpuTicks(String statLine) {
    int close = statLine.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/PID/stat line (no ')' after the command): " + statLine);
    }
    String[] f = statLine.substring(close + 2).trim().split(" +");
    // After the command: state is field 3, so utime (14) and stime (15) are at 11 and 12.
    if (f.length < 13) {
      throw new IllegalArgumentException("/proc/PID/stat line with " + (f.length + 2) + " fields, expected 15 or more");
    }
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** VmRSS of a {@code /proc/PID/status} text, KiB; 0 when absent (a zombie). */
  public static long rssKib(String status) {
    for (String line : status.split("\n")) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
      }
    }
    return 0;
  }

  /** CPU seconds the process {@code pid} has used so far. */
  public static double cpuSeconds(long pid) throws IOException {
    return cpuTicks(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")).trim())
        / (double) TICKS_PER_SECOND;
  }

  /** Resident memory of the process {@code pid}, MiB. */
  public static double rssMib(long pid) throws IOException {
    return rssKib(Files.readString(Path.of("/proc", String.valueOf(pid), "status"))) / 1024.0;
  }
}
