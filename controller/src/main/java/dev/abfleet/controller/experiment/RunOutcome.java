package dev.abfleet.controller.experiment;

import java.util.List;

/**
 * What one boot produced: samples and telemetry, or a classified failure.
 *
 * @param bootMs ms from VM start to the harness's first line; 0 = not reached
 * @param runMs ms from VM start to exit
 * @param stageMs ms spent staging artifacts (not measured time)
 * @param message failure message; empty when ok
 * @param hostFacts the policy's class_by dimensions of the host that ran the boot, as
 *     "name=value" joined by spaces, fixed when the block was planned ({@link HostClassKey});
 *     empty = none asked for
 */
public record RunOutcome(
    String runId,
    String arm,
    String hostId,
    int pairIndex,
    int orderInPair,
    long leaseEpoch,
    Status status,
    String accelerator,
    String hypervisor,
    long bootMs,
    long runMs,
    long stageMs,
    String kernelRelease,
    List<Sample> samples,
    String message,
    String consoleTail,
    String hostFacts) {

  /** How the boot ended. INFRA is about the host, never the arm. */
  public enum Status {
    OK,
    BOOT_FAILED,
    TIMEOUT,
    HARNESS_FAILED,
    INFRA;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public RunOutcome {
    samples = samples == null ? List.of() : List.copyOf(samples);
    accelerator = accelerator == null ? "" : accelerator;
    hypervisor = hypervisor == null ? "" : hypervisor;
    kernelRelease = kernelRelease == null ? "" : kernelRelease;
    message = message == null ? "" : message;
    consoleTail = consoleTail == null ? "" : consoleTail;
    hostFacts = hostFacts == null ? "" : hostFacts;
  }

  /** An outcome without host facts (as workers report it). */
  public RunOutcome(String runId, String arm, String hostId, int pairIndex, int orderInPair,
      long leaseEpoch, Status status, String accelerator, String hypervisor, long bootMs,
      long runMs, long stageMs, String kernelRelease, List<Sample> samples, String message,
      String consoleTail) {
    this(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status, accelerator, hypervisor,
        bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail, "");
  }

  /** The same outcome with the class_by facts of the host that ran it. */
  public RunOutcome withHostFacts(String facts) {
    return new RunOutcome(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status,
        accelerator, hypervisor, bootMs, runMs, stageMs, kernelRelease, samples, message,
        consoleTail, facts);
  }

  /** The same outcome placed where the controller planned it (arm, pair, order). */
  public RunOutcome placed(String armName, int pair, int order) {
    return new RunOutcome(runId, armName, hostId, pair, order, leaseEpoch, status, accelerator,
        hypervisor, bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail,
        hostFacts);
  }
}
