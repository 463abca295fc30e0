package dev.abfleet.report;

/**
 * What the fleet recorded about a boot beyond its samples; reports of boots recorded elsewhere
 * ({@code abfleet analyze}) have none.
 *
 * @param bootMs guest time from kernel start to the harness, ms; 0 = not reached
 * @param runMs VM process start to exit, ms
 * @param stageMs artifact staging before the measured window, ms
 * @param orderInPair 0 = booted first in its pair (a warm-up boot: 0)
 * @param message failure message; empty when ok
 * @param consoleTail last console lines of a failed boot; empty when ok
 */
public record RunFacts(
    String hypervisor,
    String kernelRelease,
    long leaseEpoch,
    int orderInPair,
    long bootMs,
    long runMs,
    long stageMs,
    String message,
    String consoleTail) {

  public RunFacts {
    hypervisor = hypervisor == null ? "" : hypervisor;
    kernelRelease = kernelRelease == null ? "" : kernelRelease;
    message = message == null ? "" : message;
    consoleTail = consoleTail == null ? "" : consoleTail;
  }
}
