package dev.abfleet.worker.vm.vz;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything {@link VfkitArgs#build} needs for one Apple Virtualization.framework VM.
 *
 * @param binary       the vfkit executable (name or path)
 * @param vcpus        virtual CPUs, at least 1
 * @param memoryMib    guest memory in MiB, at least 64
 * @param kernel       uncompressed arm64 {@code Image}
 * @param initrd       initramfs
 * @param guestParams  harness parameters, one kernel argument each
 * @param cmdlineExtra the user's extra kernel arguments, appended last; empty for none
 * @param consoleLog   file receiving the guest console ({@code hvc0})
 * @param sharedDir    host directory shared with the guest over virtio-fs; receives results
 * @param mountTag     virtio-fs tag of {@code sharedDir}; the guest mounts it at {@code /mnt/<tag>}
 * @param vsockPort    guest vsock port to expose, or 0 for no vsock device
 * @param vsockSocket  host unix socket for {@code vsockPort} (vfkit listens on it); ignored when the port is 0
 * @param volumeDir    the host volume ({@code volume: host}), shared as a second virtio-fs
 *                     device with tag {@link dev.abfleet.worker.vm.VolumeTransport#TAG}; null = none
 */
public record VfkitLaunch(
    String binary,
    int vcpus,
    int memoryMib,
    Path kernel,
    Path initrd,
    List<String> guestParams,
    String cmdlineExtra,
    Path consoleLog,
    Path sharedDir,
    String mountTag,
    int vsockPort,
    Path vsockSocket,
    Path volumeDir) {

  public VfkitLaunch {
    guestParams = List.copyOf(guestParams == null ? List.of() : guestParams);
    cmdlineExtra = cmdlineExtra == null ? "" : cmdlineExtra;
  }

  /** A VM without a host volume. */
  public VfkitLaunch(String binary, int vcpus, int memoryMib, Path kernel, Path initrd, List<String> guestParams,
      String cmdlineExtra, Path consoleLog, Path sharedDir, String mountTag, int vsockPort, Path vsockSocket) {
    this(binary, vcpus, memoryMib, kernel, initrd, guestParams, cmdlineExtra, consoleLog, sharedDir, mountTag,
        vsockPort, vsockSocket, null);
  }
}
