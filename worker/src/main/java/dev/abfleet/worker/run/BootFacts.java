package dev.abfleet.worker.run;

import java.util.List;
import java.util.Optional;

/**
 * What is known after a VM exited (or was killed), reduced to what classification needs. Made
 * by {@link #stagingFailed} (no VM started) or {@link #exited} and its named steps; what a
 * step does not set is the healthy default (no error, harness not started, nothing missing).
 *
 * @param stagingError present when artifacts could not be staged (before any VM started)
 * @param launchError present when the VM process could not be started at all
 * @param outputOverCap present when the guest's console or results passed its cap (see
 *     {@link dev.abfleet.worker.vm.GuestOutputCaps}): which file and how big
 * @param timedOut the VM was killed at its timeout
 * @param exitCode VM process exit code, -1 when killed or never started
 * @param harnessStarted the harness's start line arrived (the kernel reached userspace)
 * @param harnessDone the harness's done line arrived
 * @param missingMetrics requested metrics with no measured (non-warm-up) sample
 * @param harnessErrors error events the harness reported, "metric: message"
 * @param setupErrors setup_error events of the guest's /init, "step: message": the boot's
 *     modules or host volume could not be set up, so the harness never ran
 * @param workloadProblem why a workload's run failed (no valid output, non-zero exit, timeout,
 *     flood), the offending line quoted; empty for a workload that succeeded or no workload
 */
public record BootFacts(
    Optional<String> stagingError,
    Optional<String> launchError,
    Optional<String> outputOverCap,
    boolean timedOut,
    int exitCode,
    boolean harnessStarted,
    boolean harnessDone,
    List<String> missingMetrics,
    List<String> harnessErrors,
    List<String> setupErrors,
    Optional<String> workloadProblem) {

  public BootFacts {
    missingMetrics = List.copyOf(missingMetrics);
    harnessErrors = List.copyOf(harnessErrors);
    setupErrors = List.copyOf(setupErrors);
  }

  /** Artifacts could not be staged: no VM started. */
  public static BootFacts stagingFailed(String message) {
    return new Builder(-1).stagingError(message).build();
  }

  /** A VM that exited with {@code exitCode} (-1 = killed or never started); the other facts follow. */
  public static Builder exited(int exitCode) {
    return new Builder(exitCode);
  }

  /** The facts of one boot, step by step. */
  public static final class Builder {
    private final int exitCode;
    private Optional<String> stagingError = Optional.empty();
    private Optional<String> launchError = Optional.empty();
    private Optional<String> outputOverCap = Optional.empty();
    private boolean timedOut;
    private boolean harnessStarted;
    private boolean harnessDone;
    private List<String> missingMetrics = List.of();
    private List<String> harnessErrors = List.of();
    private List<String> setupErrors = List.of();
    private Optional<String> workloadProblem = Optional.empty();

    private Builder(int exitCode) {
      this.exitCode = exitCode;
    }

    private Builder stagingError(String message) {
      this.stagingError = Optional.of(message);
      return this;
    }

    public Builder launchError(Optional<String> message) {
      this.launchError = message;
      return this;
    }

    public Builder outputOverCap(Optional<String> which) {
      this.outputOverCap = which;
      return this;
    }

    /** The VM was killed at its timeout. */
    public Builder timedOut(boolean timedOut) {
      this.timedOut = timedOut;
      return this;
    }

    /** Whether the harness's start and done lines arrived. */
    public Builder harness(boolean started, boolean done) {
      this.harnessStarted = started;
      this.harnessDone = done;
      return this;
    }

    public Builder missingMetrics(List<String> metrics) {
      this.missingMetrics = metrics;
      return this;
    }

    public Builder harnessErrors(List<String> errors) {
      this.harnessErrors = errors;
      return this;
    }

    public Builder setupErrors(List<String> errors) {
      this.setupErrors = errors;
      return this;
    }

    public Builder workloadProblem(Optional<String> problem) {
      this.workloadProblem = problem;
      return this;
    }

    public BootFacts build() {
      return new BootFacts(stagingError, launchError, outputOverCap, timedOut, exitCode, harnessStarted, harnessDone,
          missingMetrics, harnessErrors, setupErrors, workloadProblem);
    }
  }
}
