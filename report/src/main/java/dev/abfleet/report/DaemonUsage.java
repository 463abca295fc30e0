package dev.abfleet.report;

/**
 * The host process that served a boot's host volume (virtio-fs: virtiofsd) and what it used:
 * the host side of the I/O path, beside the guest's counters. Never gates a verdict.
 *
 * @param daemon which daemon, e.g. "qemu-virtiofsd 7.2"
 * @param options what it was told that changes behaviour, e.g. "cache=always"
 * @param cpuMs its user plus system CPU time over the boot, ms
 * @param threads the most threads it had at once
 */
public record DaemonUsage(String daemon, String options, long cpuMs, int threads) {
  public DaemonUsage {
    daemon = daemon == null ? "" : daemon;
    options = options == null ? "" : options;
  }

  /** The usage a boot record carries, or null when no daemon was named. */
  public static DaemonUsage of(String daemon, String options, long cpuMs, int threads) {
    return daemon == null || daemon.isEmpty() ? null : new DaemonUsage(daemon, options, cpuMs, threads);
  }
}
