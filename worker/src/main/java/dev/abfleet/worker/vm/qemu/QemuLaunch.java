package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.vm.VolumeShare;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything {@link QemuArgs#build} needs for one VM; pure data, nothing is checked on disk.
 *
 * @param binary       the qemu-system executable (name or path)
 * @param accelerator  {@code kvm} or {@code tcg}
 * @param arch         guest architecture: {@code x86_64} or {@code aarch64}
 * @param runId        names the VM ({@code abfleet-<runId>}); letters, digits, '.', '_', '-'
 * @param kernel       kernel image
 * @param initrd       initramfs
 * @param vcpus        virtual CPUs, at least 1
 * @param memoryMib    guest memory in MiB, at least 64
 * @param guestParams  harness parameters, one kernel command-line token each
 * @param cmdlineExtra the user's extra kernel arguments, appended last; empty for none
 * @param consoleLog   file receiving the guest console (kernel messages)
 * @param resultsLog   file receiving the harness's results channel
 * @param qmpSocket    unix socket for QMP, or null for none; non-null = the vCPUs are pinned:
 *                     the VM starts paused with a host thread per vCPU, see {@link VcpuPinner}
 * @param volume       the host volume and how it is shared, or null for none
 */
public record QemuLaunch(
    String binary,
    String accelerator,
    String arch,
    String runId,
    Path kernel,
    Path initrd,
    int vcpus,
    int memoryMib,
    List<String> guestParams,
    String cmdlineExtra,
    Path consoleLog,
    Path resultsLog,
    Path qmpSocket,
    Volume volume) {

  public QemuLaunch {
    guestParams = List.copyOf(guestParams == null ? List.of() : guestParams);
    cmdlineExtra = cmdlineExtra == null ? "" : cmdlineExtra;
  }

  /** A VM without a host volume. */
  public QemuLaunch(String binary, String accelerator, String arch, String runId, Path kernel, Path initrd,
      int vcpus, int memoryMib, List<String> guestParams, String cmdlineExtra, Path consoleLog, Path resultsLog,
      Path qmpSocket) {
    this(binary, accelerator, arch, runId, kernel, initrd, vcpus, memoryMib, guestParams, cmdlineExtra,
        consoleLog, resultsLog, qmpSocket, null);
  }

  /**
   * The host volume of a VM.
   *
   * @param share the directory, transport and tag
   * @param virtiofsSocket for virtio-fs: the vhost-user socket virtiofsd listens on; null for 9p
   */
  public record Volume(VolumeShare share, Path virtiofsSocket) {}
}
