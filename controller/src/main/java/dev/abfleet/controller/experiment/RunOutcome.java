package dev.abfleet.controller.experiment;

import dev.abfleet.controller.plan.HostQuiet;
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
 * @param startedAtMs wall clock (Unix epoch ms, the worker's) when the run began; 0 = unknown
 * @param endedAtMs wall clock (Unix epoch ms, the worker's) when the run ended; 0 = unknown
 * @param warmup a warm-up boot on a freshly leased host: shown with the boots, never part of a
 *     pair or a verdict
 * @param guest volume transport, pinning and guest counters; {@link GuestFacts#NONE} = none
 * @param rerun kept for the record only: a boot of its block was interfered and the pair ran
 *     again ({@link HostQuiet}); never part of a pair or a verdict
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
    String hostFacts,
    long startedAtMs,
    long endedAtMs,
    boolean warmup,
    GuestFacts guest,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
    boolean rerun) {

  /** How the boot ended. INFRA is about the host, never the arm. */
  public enum Status {
    OK,
    BOOT_FAILED,
    TIMEOUT,
    HARNESS_FAILED,
    INFRA,
    /** The arm cannot run as configured (a missing kernel module): fails the experiment. */
    CONFIG;

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
    guest = guest == null ? GuestFacts.NONE : guest;
  }

  /** An outcome that counts (not kept for the record only). */
  public RunOutcome(String runId, String arm, String hostId, int pairIndex, int orderInPair,
      long leaseEpoch, Status status, String accelerator, String hypervisor, long bootMs,
      long runMs, long stageMs, String kernelRelease, List<Sample> samples, String message,
      String consoleTail, String hostFacts, long startedAtMs, long endedAtMs, boolean warmup,
      GuestFacts guest) {
    this(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status, accelerator, hypervisor,
        bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail, hostFacts,
        startedAtMs, endedAtMs, warmup, guest, false);
  }

  /** True when the worker found the host not quiet during the boot's window. */
  public boolean interfered() {
    return guest.host() != null && guest.host().interfered();
  }

  /** The same outcome kept for the record of a block re-run for interference. */
  public RunOutcome asRerun() {
    return new RunOutcome(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status,
        accelerator, hypervisor, bootMs, runMs, stageMs, kernelRelease, samples, message,
        consoleTail, hostFacts, startedAtMs, endedAtMs, warmup, guest, true);
  }

  /** An outcome without guest facts. */
  public RunOutcome(String runId, String arm, String hostId, int pairIndex, int orderInPair,
      long leaseEpoch, Status status, String accelerator, String hypervisor, long bootMs,
      long runMs, long stageMs, String kernelRelease, List<Sample> samples, String message,
      String consoleTail, String hostFacts, long startedAtMs, long endedAtMs, boolean warmup) {
    this(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status, accelerator, hypervisor,
        bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail, hostFacts,
        startedAtMs, endedAtMs, warmup, GuestFacts.NONE);
  }

  /** The same outcome with what the worker and guest recorded beyond samples. */
  public RunOutcome withGuest(GuestFacts facts) {
    return new RunOutcome(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status,
        accelerator, hypervisor, bootMs, runMs, stageMs, kernelRelease, samples, message,
        consoleTail, hostFacts, startedAtMs, endedAtMs, warmup, facts, rerun);
  }

  /** An outcome without host facts, wall-clock times or warm-up mark. */
  public RunOutcome(String runId, String arm, String hostId, int pairIndex, int orderInPair,
      long leaseEpoch, Status status, String accelerator, String hypervisor, long bootMs,
      long runMs, long stageMs, String kernelRelease, List<Sample> samples, String message,
      String consoleTail) {
    this(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status, accelerator, hypervisor,
        bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail, "", 0, 0, false);
  }

  /** An outcome with host facts, without wall-clock times, not a warm-up. */
  public RunOutcome(String runId, String arm, String hostId, int pairIndex, int orderInPair,
      long leaseEpoch, Status status, String accelerator, String hypervisor, long bootMs,
      long runMs, long stageMs, String kernelRelease, List<Sample> samples, String message,
      String consoleTail, String hostFacts) {
    this(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status, accelerator, hypervisor,
        bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail, hostFacts, 0, 0, false);
  }

  /** An outcome as a worker reports it: no host facts (the controller adds them). */
  public RunOutcome(String runId, String arm, String hostId, int pairIndex, int orderInPair,
      long leaseEpoch, Status status, String accelerator, String hypervisor, long bootMs,
      long runMs, long stageMs, String kernelRelease, List<Sample> samples, String message,
      String consoleTail, long startedAtMs, long endedAtMs, boolean warmup) {
    this(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status, accelerator, hypervisor,
        bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail, "", startedAtMs,
        endedAtMs, warmup);
  }

  /** The same outcome with the class_by facts of the host that ran it. */
  public RunOutcome withHostFacts(String facts) {
    return new RunOutcome(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status,
        accelerator, hypervisor, bootMs, runMs, stageMs, kernelRelease, samples, message,
        consoleTail, facts, startedAtMs, endedAtMs, warmup, guest, rerun);
  }

  /** The same outcome placed where the controller planned it (arm, pair, order). */
  public RunOutcome placed(String armName, int pair, int order) {
    return new RunOutcome(runId, armName, hostId, pair, order, leaseEpoch, status, accelerator,
        hypervisor, bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail,
        hostFacts, startedAtMs, endedAtMs, warmup, guest, rerun);
  }

  /** The same outcome marked as a warm-up boot. */
  public RunOutcome asWarmup() {
    return new RunOutcome(runId, arm, hostId, pairIndex, orderInPair, leaseEpoch, status, accelerator,
        hypervisor, bootMs, runMs, stageMs, kernelRelease, samples, message, consoleTail,
        hostFacts, startedAtMs, endedAtMs, true, guest, rerun);
  }
}
