package dev.abfleet.controller.plan;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One boot of a block.
 *
 * @param orderInPair 0 = booted first
 * @param initrd null = the worker's built-in harness initramfs
 * @param timeoutS wall-clock limit of the boot in seconds
 * @param hypervisor "qemu", "vz" or "sim"
 * @param warmup a warm-up boot (booted before the measured ones, never counted)
 * @param guest the arm's pinning, modules and volume options
 * @param consolePatterns regular expressions the worker scans the boot's console for; empty = its
 *     default list
 * @param hostQuiet the experiment's quiet-host policy (threshold and wait); null = the worker's
 *     own threshold and wait
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
    boolean warmup,
    GuestSetup guest,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) java.util.List<String> consolePatterns,
    @JsonInclude(JsonInclude.Include.NON_NULL) HostQuiet hostQuiet) {

  public RunPlan {
    guest = guest == null ? GuestSetup.NONE : guest;
    consolePatterns = consolePatterns == null ? java.util.List.of() : java.util.List.copyOf(consolePatterns);
  }

  /** A boot with the worker's own quiet-host threshold and wait. */
  public RunPlan(String runId, String arm, int orderInPair, ArtifactRef kernel, ArtifactRef initrd,
      String cmdlineExtra, int vcpus, int memoryMib, BenchmarkSpec benchmark, int timeoutS,
      String hypervisor, boolean warmup, GuestSetup guest, java.util.List<String> consolePatterns) {
    this(runId, arm, orderInPair, kernel, initrd, cmdlineExtra, vcpus, memoryMib, benchmark,
        timeoutS, hypervisor, warmup, guest, consolePatterns, null);
  }

  /** A boot whose console is scanned for the worker's default patterns. */
  public RunPlan(String runId, String arm, int orderInPair, ArtifactRef kernel, ArtifactRef initrd,
      String cmdlineExtra, int vcpus, int memoryMib, BenchmarkSpec benchmark, int timeoutS,
      String hypervisor, boolean warmup, GuestSetup guest) {
    this(runId, arm, orderInPair, kernel, initrd, cmdlineExtra, vcpus, memoryMib, benchmark,
        timeoutS, hypervisor, warmup, guest, java.util.List.of());
  }

  /** A boot without pinning, extra modules or volume options. */
  public RunPlan(String runId, String arm, int orderInPair, ArtifactRef kernel, ArtifactRef initrd,
      String cmdlineExtra, int vcpus, int memoryMib, BenchmarkSpec benchmark, int timeoutS,
      String hypervisor, boolean warmup) {
    this(runId, arm, orderInPair, kernel, initrd, cmdlineExtra, vcpus, memoryMib, benchmark,
        timeoutS, hypervisor, warmup, GuestSetup.NONE);
  }

  /** A measured boot. */
  public RunPlan(String runId, String arm, int orderInPair, ArtifactRef kernel, ArtifactRef initrd,
      String cmdlineExtra, int vcpus, int memoryMib, BenchmarkSpec benchmark, int timeoutS,
      String hypervisor) {
    this(runId, arm, orderInPair, kernel, initrd, cmdlineExtra, vcpus, memoryMib, benchmark, timeoutS,
        hypervisor, false);
  }
}
