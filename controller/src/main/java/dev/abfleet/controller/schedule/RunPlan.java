package dev.abfleet.controller.schedule;

import dev.abfleet.controller.experiment.ArtifactRef;
import dev.abfleet.controller.experiment.BenchmarkSpec;

/**
 * One boot of a block.
 *
 * @param orderInPair 0 = booted first
 * @param initrd null = the worker's built-in harness initramfs
 * @param timeoutS wall-clock limit of the boot in seconds
 * @param hypervisor "qemu", "vz" or "sim"
 * @param warmup a warm-up boot (booted before the measured ones, never counted)
 */
public record RunPlan(
    String runId,
    String arm,
    int orderInPair,
    ArtifactRef kernel,
    ArtifactRef initrd,
    String cmdlineExtra,
    int vcpus,
    int memoryMib,
    BenchmarkSpec benchmark,
    int timeoutS,
    String hypervisor,
    boolean warmup) {

  /** A measured boot. */
  public RunPlan(String runId, String arm, int orderInPair, ArtifactRef kernel, ArtifactRef initrd,
      String cmdlineExtra, int vcpus, int memoryMib, BenchmarkSpec benchmark, int timeoutS,
      String hypervisor) {
    this(runId, arm, orderInPair, kernel, initrd, cmdlineExtra, vcpus, memoryMib, benchmark, timeoutS,
        hypervisor, false);
  }
}
