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
 * @param volumeTransport "9p" or "virtiofs" for a host-shared volume; empty = volume guest
 * @param volumeOptions mount options the guest used for it; empty = volume guest
 * @param vcpuHostCpus host CPU each vCPU thread was pinned to (index = vCPU); empty = not pinned
 * @param counters guest counters per metric; empty = none reported
 * @param guestArch guest architecture ("x86_64", "aarch64"); empty = unknown
 * @param guestImageSha256 SHA-256 of the guest image the boot used; empty = unknown or the arm's
 *     own initrd
 * @param consoleFindings console lines that matched the console patterns (WARNING:, BUG:, Oops,
 *     ...); 0 = clean or not scanned
 * @param consoleLines the first of them, in console order
 * @param volumeDaemon the host process that served the volume and what it used; null = none
 * @param startedAtMs wall clock (Unix epoch ms, the worker's) when the run began; 0 = unknown
 * @param endedAtMs wall clock (Unix epoch ms, the worker's) when the run ended; 0 = unknown
 * @param host the host's pressure and facts around the boot; null = not sampled (sim hosts,
 *     boots recorded before hosts were sampled or outside the fleet)
 * @param rerun kept for the record only: a boot of its block was interfered and the pair ran
 *     again (Boot.rerun); never part of a pair or a verdict
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
    String consoleTail,
    String volumeTransport,
    String volumeOptions,
    java.util.List<Integer> vcpuHostCpus,
    java.util.List<MetricCounters> counters,
    String guestArch,
    String guestImageSha256,
    int consoleFindings,
    java.util.List<String> consoleLines,
    DaemonUsage volumeDaemon,
    long startedAtMs,
    long endedAtMs,
    BootHost host,
    boolean rerun) {

  public RunFacts {
    hypervisor = hypervisor == null ? "" : hypervisor;
    kernelRelease = kernelRelease == null ? "" : kernelRelease;
    message = message == null ? "" : message;
    consoleTail = consoleTail == null ? "" : consoleTail;
    volumeTransport = volumeTransport == null ? "" : volumeTransport;
    volumeOptions = volumeOptions == null ? "" : volumeOptions;
    vcpuHostCpus = vcpuHostCpus == null ? java.util.List.of() : java.util.List.copyOf(vcpuHostCpus);
    counters = counters == null ? java.util.List.of() : java.util.List.copyOf(counters);
    guestArch = guestArch == null ? "" : guestArch;
    guestImageSha256 = guestImageSha256 == null ? "" : guestImageSha256;
    consoleLines = consoleLines == null ? java.util.List.of() : java.util.List.copyOf(consoleLines);
  }

  /** Facts of a boot that counts (not kept for the record of a re-run block). */
  public RunFacts(String hypervisor, String kernelRelease, long leaseEpoch, int orderInPair,
      long bootMs, long runMs, long stageMs, String message, String consoleTail,
      String volumeTransport, String volumeOptions, java.util.List<Integer> vcpuHostCpus,
      java.util.List<MetricCounters> counters, String guestArch, String guestImageSha256, int consoleFindings,
      java.util.List<String> consoleLines, DaemonUsage volumeDaemon, long startedAtMs, long endedAtMs,
      BootHost host) {
    this(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        consoleFindings, consoleLines, volumeDaemon, startedAtMs, endedAtMs, host, false);
  }

  /** The same facts marked as kept for the record of a block re-run for interference. */
  public RunFacts withRerun(boolean kept) {
    return new RunFacts(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        consoleFindings, consoleLines, volumeDaemon, startedAtMs, endedAtMs, host, kept);
  }

  /** Facts of a boot whose host was not sampled. */
  public RunFacts(String hypervisor, String kernelRelease, long leaseEpoch, int orderInPair,
      long bootMs, long runMs, long stageMs, String message, String consoleTail,
      String volumeTransport, String volumeOptions, java.util.List<Integer> vcpuHostCpus,
      java.util.List<MetricCounters> counters, String guestArch, String guestImageSha256, int consoleFindings,
      java.util.List<String> consoleLines, DaemonUsage volumeDaemon, long startedAtMs, long endedAtMs) {
    this(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        consoleFindings, consoleLines, volumeDaemon, startedAtMs, endedAtMs, null);
  }

  /** Facts of a boot whose start and end times are unknown. */
  public RunFacts(String hypervisor, String kernelRelease, long leaseEpoch, int orderInPair,
      long bootMs, long runMs, long stageMs, String message, String consoleTail,
      String volumeTransport, String volumeOptions, java.util.List<Integer> vcpuHostCpus,
      java.util.List<MetricCounters> counters, String guestArch, String guestImageSha256, int consoleFindings,
      java.util.List<String> consoleLines, DaemonUsage volumeDaemon) {
    this(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        consoleFindings, consoleLines, volumeDaemon, 0, 0);
  }

  /** The same facts with the run's start and end wall times (Unix epoch ms; 0 = unknown). */
  public RunFacts withTimes(long startedAt, long endedAt) {
    return new RunFacts(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        consoleFindings, consoleLines, volumeDaemon, startedAt, endedAt, host, rerun);
  }

  /** The same facts with the host's pressure and facts around the boot (null = not sampled). */
  public RunFacts withHost(BootHost sampled) {
    return new RunFacts(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        consoleFindings, consoleLines, volumeDaemon, startedAtMs, endedAtMs, sampled, rerun);
  }

  /** Facts of a boot whose volume, if any, had no daemon beside the VM. */
  public RunFacts(String hypervisor, String kernelRelease, long leaseEpoch, int orderInPair,
      long bootMs, long runMs, long stageMs, String message, String consoleTail,
      String volumeTransport, String volumeOptions, java.util.List<Integer> vcpuHostCpus,
      java.util.List<MetricCounters> counters, String guestArch, String guestImageSha256, int consoleFindings,
      java.util.List<String> consoleLines) {
    this(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        consoleFindings, consoleLines, null);
  }

  /** Facts of a boot whose console was not scanned and whose volume had no daemon. */
  public RunFacts(String hypervisor, String kernelRelease, long leaseEpoch, int orderInPair,
      long bootMs, long runMs, long stageMs, String message, String consoleTail,
      String volumeTransport, String volumeOptions, java.util.List<Integer> vcpuHostCpus,
      java.util.List<MetricCounters> counters, String guestArch, String guestImageSha256) {
    this(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, guestArch, guestImageSha256,
        0, null, null);
  }

  /** Facts of a boot whose guest architecture and image are unknown. */
  public RunFacts(String hypervisor, String kernelRelease, long leaseEpoch, int orderInPair,
      long bootMs, long runMs, long stageMs, String message, String consoleTail,
      String volumeTransport, String volumeOptions, java.util.List<Integer> vcpuHostCpus,
      java.util.List<MetricCounters> counters) {
    this(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, volumeTransport, volumeOptions, vcpuHostCpus, counters, "", "");
  }

  /** Facts of a boot with no volume, pinning or counters. */
  public RunFacts(String hypervisor, String kernelRelease, long leaseEpoch, int orderInPair,
      long bootMs, long runMs, long stageMs, String message, String consoleTail) {
    this(hypervisor, kernelRelease, leaseEpoch, orderInPair, bootMs, runMs, stageMs, message,
        consoleTail, "", "", null, null, "", "");
  }

  /** This boot's counters of {@code metric}, or null. */
  public MetricCounters counters(String metric) {
    return counters.stream().filter(c -> c.metric().equals(metric)).findFirst().orElse(null);
  }
}
