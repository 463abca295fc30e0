package dev.abfleet.worker.host;

import dev.abfleet.worker.vm.qemu.CpuList;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What /proc said at one instant: the "some" line of each PSI resource, the load average and
 * the host's busy CPU time. A field is null (or -1) when its file was missing or did not parse.
 *
 * @param cpu CPU pressure, null = no /proc/pressure/cpu
 * @param io I/O pressure, null = none
 * @param memory memory pressure, null = none
 * @param load1m 1-minute load average; -1 = unknown
 * @param runnable runnable tasks (the number before the slash in /proc/loadavg); -1 = unknown
 * @param busyTicks busy CPU time of all CPUs in USER_HZ ticks (/proc/stat "cpu" line), or of the
 *     worker's own CPUs when its affinity is narrower than the host ({@link #ownShare}); -1 = unknown
 * @param workerTicks CPU time of the worker process and of the children it has reaped (its VMs,
 *     their daemons, image tools) in USER_HZ ticks (/proc/self/stat utime + stime + cutime +
 *     cstime); -1 = unknown
 * @param cpus the host's CPUs (/proc/stat "cpuN" lines), or the worker's own as above; 0 = unknown
 * @param atMs wall clock of the snapshot, Unix epoch ms
 */
public record PressureSnapshot(Psi cpu, Psi io, Psi memory, double load1m, int runnable, long busyTicks,
    long workerTicks, int cpus, long atMs) {

  /**
   * One "some" line of a PSI file.
   *
   * @param avg10 percent of the last 10 s in which some task stalled on the resource
   * @param totalUs stall time since boot, microseconds
   */
  public record Psi(double avg10, long totalUs) {

    /**
     * The "some" line of a /proc/pressure file's text
     * ({@code some avg10=0.00 avg60=0.00 avg300=0.00 total=12345}), empty when there is none or
     * it does not parse.
     */
    static Optional<Psi> parse(String text) {
      for (String line : text.split("\n")) {
        String[] fields = line.strip().split("\\s+");
        if (fields.length == 0 || !fields[0].equals("some")) {
          continue;
        }
        Double avg10 = null;
        Long total = null;
        for (String f : fields) {
          try {
            if (f.startsWith("avg10=")) {
              avg10 = Double.parseDouble(f.substring("avg10=".length()));
            } else if (f.startsWith("total=")) {
              total = Long.parseLong(f.substring("total=".length()));
            }
          } catch (NumberFormatException e) {
            return Optional.empty();
          }
        }
        return avg10 == null || total == null ? Optional.empty() : Optional.of(new Psi(avg10, total));
      }
      return Optional.empty();
    }
  }

  /** The 1-minute load of /proc/loadavg's text ({@code 1.38 0.60 0.25 7/163 5611}); -1 = unknown. */
  static double load1m(String loadavg) {
    String[] f = loadavg.strip().split("\\s+");
    try {
      return f.length >= 1 ? Double.parseDouble(f[0]) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The runnable tasks of /proc/loadavg's text (7 in {@code 7/163}); -1 = unknown. */
  static int runnable(String loadavg) {
    String[] f = loadavg.strip().split("\\s+");
    if (f.length < 4 || f[3].indexOf('/') < 0) {
      return -1;
    }
    try {
      return Integer.parseInt(f[3].substring(0, f[3].indexOf('/')));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Busy ticks of the aggregate "cpu" line of /proc/stat: user + nice + system + irq + softirq +
   * steal (idle and iowait are not busy; guest time is already inside user); -1 = unknown. With
   * {@code only} not empty, summed over those CPUs' "cpuN" lines instead: a worker confined to
   * some of the host's CPUs counts the time spent on those.
   */
  static long busyTicks(String stat, Set<Integer> only) {
    long sum = 0;
    int found = 0;
    for (String line : stat.split("\n")) {
      String[] f = line.strip().split("\\s+");
      if (f.length < 8 || !f[0].startsWith("cpu")) {
        continue;
      }
      boolean wanted = only.isEmpty() ? f[0].equals("cpu") : only.contains(cpuNumber(f[0]));
      if (!wanted) {
        continue;
      }
      try {
        long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3])
            + Long.parseLong(f[6]) + Long.parseLong(f[7]);
        sum += f.length > 8 ? busy + Long.parseLong(f[8]) : busy;
        found++;
      } catch (NumberFormatException e) {
        return -1;
      }
      if (only.isEmpty()) {
        return sum;
      }
    }
    return found > 0 && found == only.size() ? sum : -1;
  }

  /** N of a "cpuN" field, -1 for the aggregate "cpu" or anything else. */
  private static int cpuNumber(String field) {
    try {
      return field.length() > 3 ? Integer.parseInt(field.substring(3)) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The host's CPUs: the numbers of /proc/stat's "cpuN" lines (none = unknown). */
  static Set<Integer> cpuNumbers(String stat) {
    Set<Integer> cpus = new TreeSet<>();
    for (String line : stat.split("\n")) {
      if (line.length() > 3 && line.startsWith("cpu") && Character.isDigit(line.charAt(3))) {
        int end = line.indexOf(' ');
        int n = cpuNumber(end < 0 ? line : line.substring(0, end));
        if (n >= 0) {
          cpus.add(n);
        }
      }
    }
    return cpus;
  }

  /**
   * The CPUs the worker counts as its share of the host: the online CPUs of its affinity
   * ({@code Cpus_allowed_list} of /proc/self/status, which a cgroup cpuset or taskset narrows)
   * when that is fewer than the host's, else empty (= the whole host). Two workers pinned to
   * disjoint CPUs of one host then do not count each other's VMs as interference.
   */
  static Set<Integer> ownShare(Set<Integer> online, String selfStatus) {
    Set<Integer> own = new TreeSet<>();
    CpuList.parse(CpuList.allowedList(selfStatus))
        .ifPresent(list -> list.stream().filter(online::contains).forEach(own::add));
    return own.isEmpty() || own.size() >= online.size() ? Set.of() : own;
  }

  /**
   * utime + stime + cutime + cstime of a /proc/PID/stat text (fields 14-17, counted after the
   * command name in parentheses, which may hold spaces); -1 = unknown.
   */
  static long processTicks(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return -1;
    }
    // The fields after ")" start at field 3 (state): utime, field 14, is the 12th of them.
    String[] f = stat.substring(close + 1).strip().split("\\s+");
    if (f.length < 15) {
      return -1;
    }
    try {
      return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
