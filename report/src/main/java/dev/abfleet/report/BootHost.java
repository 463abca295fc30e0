package dev.abfleet.report;

/**
 * How busy the host was around a boot and what it was: what a comparison of boots depends on
 * beyond the kernels. Recorded by the worker on real hosts (RunTelemetry.host_pressure,
 * host_facts, interfered); absent for simulated hosts and boots recorded before hosts were
 * sampled. Never gates a verdict.
 *
 * @param pressure the host's pressure over the boot's window
 * @param facts the host's facts at the boot
 * @param interfered the host was not quiet by the worker's threshold: its CPU pressure, and
 *     other processes' CPU time, above it
 * @param quietWaitMs how long the worker waited for a quiet host before the boot, ms; 0 = no wait
 */
public record BootHost(Pressure pressure, Facts facts, boolean interfered,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
    long quietWaitMs) {

  public BootHost {
    pressure = pressure == null ? Pressure.NONE : pressure;
    facts = facts == null ? Facts.NONE : facts;
  }

  /** A boot that did not wait for a quiet host. */
  public BootHost(Pressure pressure, Facts facts, boolean interfered) {
    this(pressure, facts, interfered, 0);
  }

  /**
   * Linux pressure stall information, load and CPU time over the boot's window (start to end of
   * the run). Without PSI ({@code hasPsi} false) the *Some* fields are 0 = not measured.
   *
   * @param hasPsi /proc/pressure/cpu was readable at both ends of the window
   * @param cpuSomeAvg10 CPU "some" avg10 at the window's end, percent
   * @param cpuSomeTotalUs CPU "some" stall time over the window, us
   * @param ioSomeAvg10 I/O "some" avg10 at the end, percent
   * @param ioSomeTotalUs I/O "some" stall time over the window, us
   * @param memorySomeAvg10 memory "some" avg10 at the end, percent
   * @param memorySomeTotalUs memory "some" stall time over the window, us
   * @param load1m 1-minute load average at the end; -1 = not measured
   * @param runnableTasks runnable tasks at the end; 0 = not measured
   * @param hostBusyMs busy CPU time of the whole host over the window (all CPUs, the VM
   *     included), ms
   * @param windowMs length of the window, ms
   * @param workerCpuMs CPU time of the worker and the children it reaped (the VM, its daemons)
   *     over the window, ms; 0 = not measured
   * @param hostCpus the host's CPUs; 0 = unknown
   */
  public record Pressure(boolean hasPsi, double cpuSomeAvg10, long cpuSomeTotalUs, double ioSomeAvg10,
      long ioSomeTotalUs, double memorySomeAvg10, long memorySomeTotalUs, double load1m, int runnableTasks,
      long hostBusyMs, long windowMs, long workerCpuMs, int hostCpus) {
    public static final Pressure NONE = new Pressure(false, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0);

    /** CPU time of processes other than the worker and its VMs, ms; -1 = not measured. */
    public long otherCpuMs() {
      return windowMs > 0 && workerCpuMs > 0 ? Math.max(0, hostBusyMs - workerCpuMs) : -1;
    }

    /** {@link #otherCpuMs} as a percent of the host's CPU time over the window; NaN = not measured. */
    public double otherCpuPct() {
      long others = otherCpuMs();
      return others < 0 || hostCpus <= 0 ? Double.NaN : 100.0 * others / (windowMs * (double) hostCpus);
    }
  }

  /**
   * The host's facts at the boot; empty strings and 0 = unknown there.
   *
   * @param hypervisorVersion the hypervisor's version line, e.g. "QEMU emulator version 8.2.2"
   * @param hostKernel host kernel release
   * @param cpuModel CPU model name
   * @param microcode CPU microcode revision
   * @param smt "on" / "off"
   * @param cpufreqGovernor cpufreq governor of cpu0
   * @param boost frequency boost / turbo, "on" / "off"
   * @param thp transparent huge pages mode, e.g. "madvise"
   * @param memoryMib host memory, MiB
   * @param workerCpus CPUs the worker may run on, e.g. "0-3"
   */
  public record Facts(String hypervisorVersion, String hostKernel, String cpuModel, String microcode, String smt,
      String cpufreqGovernor, String boost, String thp, long memoryMib, String workerCpus) {
    public static final Facts NONE = new Facts("", "", "", "", "", "", "", "", 0, "");

    public Facts {
      hypervisorVersion = hypervisorVersion == null ? "" : hypervisorVersion;
      hostKernel = hostKernel == null ? "" : hostKernel;
      cpuModel = cpuModel == null ? "" : cpuModel;
      microcode = microcode == null ? "" : microcode;
      smt = smt == null ? "" : smt;
      cpufreqGovernor = cpufreqGovernor == null ? "" : cpufreqGovernor;
      boost = boost == null ? "" : boost;
      thp = thp == null ? "" : thp;
      workerCpus = workerCpus == null ? "" : workerCpus;
    }
  }
}
