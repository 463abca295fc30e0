package dev.abfleet.worker.vm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How one boot ended.
 *
 * @param accelerator  accelerator the VM ran on ({@code kvm}, {@code tcg}, {@code vz}); null
 *                     when the VM was never started
 * @param exitCode     hypervisor process exit code; -1 when it was killed or never started
 * @param timedOut     true when the boot hit its timeout and the VM was killed
 * @param wall         wall time from process start to exit (zero when never started)
 * @param consoleLog   guest console output (kernel messages)
 * @param resultsLog   the harness's dedicated results channel, one JSON object per line
 * @param consoleTail  last ~40 lines of the console, terminal escape codes stripped
 * @param launchError  non-null when the VM could not be started at all (binary missing,
 *                     bad arguments, unusable kernel file): the message names the fix
 * @param overCap      non-null when the console or results file grew past its
 *                     {@link GuestOutputCaps cap} (the VM was killed if it still ran): which
 *                     file and how big
 * @param vcpuHostCpus host CPU each vCPU thread was pinned to (index = vCPU), as read back
 *                     after pinning; empty = not pinned
 * @param volumeDaemon the daemon that served the host volume and what it used; null = none
 *                     (no volume, or a transport the hypervisor serves itself)
 */
public record BootOutcome(
    String accelerator,
    int exitCode,
    boolean timedOut,
    Duration wall,
    Path consoleLog,
    Path resultsLog,
    String consoleTail,
    String launchError,
    String overCap,
    List<Integer> vcpuHostCpus,
    VolumeDaemon volumeDaemon) {

  public BootOutcome {
    vcpuHostCpus = vcpuHostCpus == null ? List.of() : List.copyOf(vcpuHostCpus);
  }

  /** An outcome without a volume daemon. */
  public BootOutcome(String accelerator, int exitCode, boolean timedOut, Duration wall, Path consoleLog,
      Path resultsLog, String consoleTail, String launchError, String overCap, List<Integer> vcpuHostCpus) {
    this(accelerator, exitCode, timedOut, wall, consoleLog, resultsLog, consoleTail, launchError, overCap, vcpuHostCpus,
        null);
  }

  /** This outcome with the volume's daemon. */
  public BootOutcome withVolumeDaemon(VolumeDaemon daemon) {
    return new BootOutcome(accelerator, exitCode, timedOut, wall, consoleLog, resultsLog, consoleTail, launchError,
        overCap, vcpuHostCpus, daemon);
  }

  /** An outcome of a boot whose vCPUs were not pinned. */
  public BootOutcome(String accelerator, int exitCode, boolean timedOut, Duration wall, Path consoleLog,
      Path resultsLog, String consoleTail, String launchError, String overCap) {
    this(accelerator, exitCode, timedOut, wall, consoleLog, resultsLog, consoleTail, launchError, overCap, List.of());
  }

  /** An outcome for a VM that never started. */
  public static BootOutcome notStarted(Path consoleLog, Path resultsLog, String launchError) {
    return new BootOutcome(null, -1, false, Duration.ZERO, consoleLog, resultsLog, "", launchError, null);
  }

  /** True when the VM started, was not killed and exited with status 0. */
  public boolean cleanExit() {
    return launchError == null && !timedOut && exitCode == 0;
  }
}
