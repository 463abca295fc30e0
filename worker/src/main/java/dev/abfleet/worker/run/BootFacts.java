package dev.abfleet.worker.run;

import java.util.List;

/**
 * What is known after a VM exited (or was killed), reduced to what classification needs.
 *
 * @param stagingError non-null when artifacts could not be staged (before any VM started)
 * @param launchError non-null when the VM process could not be started at all
 * @param outputOverCap non-null when the guest's console or results passed its cap (see
 *     {@link dev.abfleet.worker.vm.GuestOutputCaps}): which file and how big
 * @param timedOut the VM was killed at its timeout
 * @param exitCode VM process exit code, -1 when killed
 * @param harnessStarted the harness's start line arrived (the kernel reached userspace)
 * @param harnessDone the harness's done line arrived
 * @param missingMetrics requested metrics with no measured (non-warm-up) sample
 * @param harnessErrors error events the harness reported, "metric: message"
 * @param setupErrors setup_error events of the guest's /init, "step: message": the boot's
 *     modules or host volume could not be set up, so the harness never ran
 * @param workloadProblem why a workload's run failed (no valid output, non-zero exit, timeout,
 *     flood), the offending line quoted; null for a workload that succeeded or no workload
 */
public record BootFacts(
    String stagingError,
    String launchError,
    String outputOverCap,
    boolean timedOut,
    int exitCode,
    boolean harnessStarted,
    boolean harnessDone,
    List<String> missingMetrics,
    List<String> harnessErrors,
    List<String> setupErrors,
    String workloadProblem) {

  public BootFacts {
    setupErrors = setupErrors == null ? List.of() : List.copyOf(setupErrors);
  }

  /** A boot without a workload. */
  public BootFacts(String stagingError, String launchError, String outputOverCap, boolean timedOut, int exitCode,
      boolean harnessStarted, boolean harnessDone, List<String> missingMetrics, List<String> harnessErrors,
      List<String> setupErrors) {
    this(stagingError, launchError, outputOverCap, timedOut, exitCode, harnessStarted, harnessDone, missingMetrics,
        harnessErrors, setupErrors, null);
  }

  /** A boot whose guest reported no setup error. */
  public BootFacts(String stagingError, String launchError, String outputOverCap, boolean timedOut, int exitCode,
      boolean harnessStarted, boolean harnessDone, List<String> missingMetrics, List<String> harnessErrors) {
    this(stagingError, launchError, outputOverCap, timedOut, exitCode, harnessStarted, harnessDone, missingMetrics,
        harnessErrors, List.of(), null);
  }
}
