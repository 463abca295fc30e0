package dev.abfleet.worker.vm.qemu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Linux CPU list syntax, as in {@code /proc/self/status} Cpus_allowed_list, cgroup
 * {@code cpuset.cpus.effective} and {@code taskset -c}: {@code 0-3,6,8-9}.
 */
public final class CpuList {
  private static final Pattern SYNTAX = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");
  /** More CPUs than any host has; a range past it is a misread, not a machine. */
  private static final int MAX_CPU = 1 << 16;

  private CpuList() {}

  /** The CPUs of {@code text}, ascending and distinct; empty when it is not a CPU list. */
  public static Optional<List<Integer>> parse(String text) {
    String s = text == null ? "" : text.strip();
    if (!SYNTAX.matcher(s).matches()) {
      return Optional.empty();
    }
    TreeSet<Integer> cpus = new TreeSet<>();
    for (String part : s.split(",")) {
      int dash = part.indexOf('-');
      int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
      int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
      if (to < from || to > MAX_CPU) {
        return Optional.empty();
      }
      for (int c = from; c <= to; c++) {
        cpus.add(c);
      }
    }
    return Optional.of(List.copyOf(cpus));
  }

  /**
   * The {@code Cpus_allowed_list} value of a /proc/PID/status text (the CPUs the process may run
   * on, as a cgroup cpuset or taskset narrows them), e.g. "0-7"; "" when the line is missing.
   */
  public static String allowedList(String procStatus) {
    for (String line : procStatus.split("\n")) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring(line.indexOf(':') + 1).strip();
      }
    }
    return "";
  }

  /** The shortest list syntax for {@code cpus}, e.g. [0, 1, 2, 5] is "0-2,5". */
  public static String format(List<Integer> cpus) {
    List<Integer> sorted = new ArrayList<>(new TreeSet<>(cpus));
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < sorted.size(); ) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
        j++;
      }
      sb.append(sb.length() == 0 ? "" : ",").append(sorted.get(i));
      if (j > i) {
        sb.append('-').append(sorted.get(j));
      }
      i = j + 1;
    }
    return sb.toString();
  }
}
