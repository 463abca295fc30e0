package dev.abfleet.worker.vm;

/**
 * The host process that served a boot's volume (virtio-fs: virtiofsd), and what it used: the
 * host side of the I/O path, beside the guest's counters.
 *
 * @param name which daemon, e.g. "qemu-virtiofsd 7.2"
 * @param options what it was told that changes behaviour, e.g. "cache=always"
 * @param cpuMs its user plus system CPU time over the boot, in ms (sampled every 100 ms)
 * @param threads the most threads it had at once
 */
public record VolumeDaemon(String name, String options, long cpuMs, int threads) {
  public VolumeDaemon {
    name = name == null ? "" : name;
    options = options == null ? "" : options;
  }
}
