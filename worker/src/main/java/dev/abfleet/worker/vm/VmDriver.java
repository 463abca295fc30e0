package dev.abfleet.worker.vm;

import java.util.List;

/**
 * Boots one fresh VM per call and reports how it ended. Implementations never carry state
 * from one boot to the next (no snapshots, no reused disks), so two boots are independent
 * samples.
 */
public interface VmDriver {

  /** Hypervisor name as the protocol spells it: {@code qemu} or {@code vz}. */
  String name();

  /**
   * Accelerators that really run guests on this host, best first (for example
   * {@code [kvm, tcg]} or {@code [tcg]}); empty means this driver cannot boot anything
   * here. Results from different accelerators are never comparable.
   */
  List<String> accelerators();

  /**
   * Boots {@code request.kernel()} with {@code request.initrd()} and waits until the VM
   * powers off or {@code request.timeout()} passes (then the VM is killed). Failures to
   * start the VM at all are reported in {@link BootOutcome#launchError()}, never thrown.
   *
   * @throws InterruptedException if the calling thread is interrupted; the VM is killed first
   */
  BootOutcome boot(BootRequest request) throws InterruptedException;

  /**
   * Host-volume transports this driver can share a directory over here, preferred first
   * ({@code virtiofs}, {@code 9p}); empty means {@code volume: host} cannot run on it. A boot
   * with a volume uses the first.
   */
  default List<String> volumeTransports() {
    return List.of();
  }

  /**
   * Guest architectures this driver boots here ({@code x86_64}, {@code aarch64}), for the
   * host's Hello; empty = the host's own architecture only, or nothing when
   * {@link #accelerators()} is empty.
   */
  default List<String> guestArches() {
    return List.of();
  }

  /**
   * Kernel modules, by name, that this driver's devices need in {@code arch} guests (e.g. the
   * virtio console its results channel is); /init loads those a kernel has as modules before
   * the harness starts. Empty = nothing beyond what every kernel it boots has built in.
   */
  default List<String> guestModules(String arch) {
    return List.of();
  }

  /**
   * True when this driver pins each vCPU thread of a pinned arm to a host CPU of its own; the
   * host's Hello says so, and the controller never leases a pinned arm to a driver that cannot.
   */
  default boolean pinsVcpus() {
    return true;
  }

  /** Version of the hypervisor binary, recorded in the host's Hello; empty = unknown. */
  default String version() {
    return "";
  }
}
