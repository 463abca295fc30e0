package dev.abfleet.worker.vm;

import java.util.ArrayList;
import java.util.List;

/**
 * The kernel command line and launch sizes, as every driver's argument builder assembles and
 * checks them. Order: the driver's own arguments, the harness parameters, then the user's
 * extras, so the user's arguments come last and win where the kernel keeps the last one.
 */
public final class KernelCmdline {

  private KernelCmdline() {}

  /** {@code fixed}, {@code guestParams} and the stripped {@code cmdlineExtra}, space-separated. */
  public static String join(List<String> fixed, List<String> guestParams, String cmdlineExtra) {
    List<String> parts = new ArrayList<>(fixed);
    parts.addAll(guestParams);
    if (!cmdlineExtra.isBlank()) {
      parts.add(cmdlineExtra.strip());
    }
    return String.join(" ", parts);
  }

  /**
   * Rejects what no kernel command line can carry: a guest parameter that is not exactly one
   * argument, and extras with a newline or NUL. Throws IllegalArgumentException naming the value.
   */
  public static void check(List<String> guestParams, String cmdlineExtra) {
    for (String p : guestParams) {
      if (p.isEmpty() || p.chars().anyMatch(c -> Character.isWhitespace(c) || c == 0)) {
        throw new IllegalArgumentException("guest parameter '" + printable(p)
            + "' must be one non-empty kernel argument without whitespace or NUL");
      }
    }
    if (cmdlineExtra.indexOf('\n') >= 0 || cmdlineExtra.indexOf('\r') >= 0 || cmdlineExtra.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("kernel command line '" + printable(cmdlineExtra)
          + "' contains a newline or NUL; pass arguments separated by spaces");
    }
  }

  /** Rejects fewer than 1 vCPU or less than 64 MiB, which no guest boots with. */
  public static void checkSize(int vcpus, int memoryMib) {
    if (vcpus < 1) {
      throw new IllegalArgumentException("vcpus must be >= 1, got " + vcpus);
    }
    if (memoryMib < 64) {
      throw new IllegalArgumentException("memory must be >= 64 MiB, got " + memoryMib);
    }
  }

  /** {@code s} with newline, carriage return and NUL made visible, for error messages. */
  static String printable(String s) {
    return s.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0");
  }
}
