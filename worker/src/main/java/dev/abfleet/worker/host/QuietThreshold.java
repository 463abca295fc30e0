package dev.abfleet.worker.host;

import dev.abfleet.proto.fleet.v1.HostPressure;

/**
 * When a boot counts as interfered: the host's CPU "some" pressure above {@code cpuSomePct}
 * percent (as avg10 at the window's end or as stall time over the whole window) while processes
 * other than the worker and its VMs used more than {@code cpuSomePct} percent of the host's CPU
 * time. Pressure alone is not enough: a VM with as many vCPUs as the host has CPUs stalls its own
 * threads (a 2-vCPU guest on 2 CPUs reads 10-15%), and that is the boot, not interference.
 * Where the other processes' CPU time is unknown, pressure alone decides; without PSI, their
 * CPU time alone.
 *
 * @param cpuSomePct percent, above 0 and at most 100
 */
public record QuietThreshold(double cpuSomePct) {
  /** Default: 10 percent. */
  public static final QuietThreshold DEFAULT = new QuietThreshold(10.0);

  /** System property overriding the default percent on a worker, e.g. {@code -Dabfleet.worker.host-quiet-cpu-some-pct=5}. */
  public static final String PROPERTY = "abfleet.worker.host-quiet-cpu-some-pct";

  public QuietThreshold {
    if (!(cpuSomePct > 0 && cpuSomePct <= 100)) {
      throw new IllegalArgumentException("host quiet threshold " + cpuSomePct
          + ": expected a percent above 0 and at most 100, e.g. 10");
    }
  }

  /**
   * The threshold {@code property} (percent) gives, or the default when it is unset.
   *
   * @throws IllegalArgumentException naming the property when it is not a percent
   */
  public static QuietThreshold of(String property) {
    if (property == null || property.isBlank()) {
      return DEFAULT;
    }
    try {
      return new QuietThreshold(Double.parseDouble(property.strip()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("-D" + PROPERTY + "=" + property
          + ": expected a percent above 0 and at most 100, e.g. 10", e);
    }
  }

  /** The experiment's threshold (RunAssignment.host_quiet) when it sets one, else {@code fallback}. */
  public static QuietThreshold forRun(dev.abfleet.proto.fleet.v1.RunAssignment run, QuietThreshold fallback) {
    double pct = run.hasHostQuiet() ? run.getHostQuiet().getCpuSomePct() : 0;
    return pct > 0 && pct <= 100 ? new QuietThreshold(pct) : fallback;
  }

  /** Default bound of the wait for a quiet host, ms (RunAssignment.host_quiet.max_wait_s unset). */
  public static final long DEFAULT_MAX_WAIT_MS = 60_000;

  /**
   * How long a measured boot of {@code run} may wait for a quiet host, ms: the experiment's
   * max_wait_s (0 = 60 s); 0 = no wait (warm-up boots, and runs from a controller that sends no
   * quiet-host policy, which started at once before the policy existed).
   */
  public static long maxWaitMs(dev.abfleet.proto.fleet.v1.RunAssignment run) {
    if (run.getWarmup() || !run.hasHostQuiet()) {
      return 0;
    }
    int s = run.getHostQuiet().getMaxWaitS();
    return s == 0 ? DEFAULT_MAX_WAIT_MS : s * 1_000L;
  }

  /** Whether the window's host was not quiet (see the class comment); false when nothing was measured. */
  public boolean interfered(HostPressure p) {
    double others = otherCpuPct(p);
    boolean pressure = p.getHasPsi() && (p.getCpuSomeAvg10() > cpuSomePct
        // total is in us, the window in ms: stall percent = total_us / (window_ms * 1000) * 100.
        || p.getWindowMs() > 0 && p.getCpuSomeTotalUs() / (p.getWindowMs() * 10.0) > cpuSomePct);
    if (Double.isNaN(others)) {
      return pressure;
    }
    return others > cpuSomePct && (pressure || !p.getHasPsi());
  }

  /**
   * CPU time of processes other than the worker and the children it reaped (its VMs and their
   * daemons) over the window, in percent of the host's CPU time; NaN when not measured.
   */
  public static double otherCpuPct(HostPressure p) {
    if (p.getWindowMs() <= 0 || p.getHostCpus() <= 0 || p.getHostBusyMs() <= 0 || p.getWorkerCpuMs() <= 0) {
      return Double.NaN;
    }
    long others = Math.max(0, p.getHostBusyMs() - p.getWorkerCpuMs());
    return 100.0 * others / (p.getWindowMs() * (double) p.getHostCpus());
  }
}
