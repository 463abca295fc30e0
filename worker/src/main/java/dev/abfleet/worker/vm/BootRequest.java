package dev.abfleet.worker.vm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One boot of one kernel.
 *
 * @param runId        identifies the boot in logs and the VM name; letters, digits, '.', '_', '-'
 * @param arch         guest architecture: {@code x86_64} or {@code aarch64}
 * @param kernel       kernel image (bzImage for x86_64, uncompressed Image for aarch64 on VZ)
 * @param initrd       initramfs holding the harness
 * @param cmdlineExtra the user's extra kernel arguments, appended last; empty for none
 * @param guestParams  harness parameters such as {@code abfleet.iterations=5}, one token each,
 *                     appended before {@code cmdlineExtra}
 * @param vcpus        virtual CPUs, at least 1
 * @param memoryMib    guest memory in MiB, at least 64
 * @param timeout      wall-clock limit for the whole boot, after which the VM is killed
 * @param workDir      per-boot directory; console.log and results.log are written there
 * @param volume       host directory shared into the guest ({@code volume: host}); null = none
 * @param pinVcpus     pin each vCPU thread to a host CPU of its own before the guest runs; a
 *                     driver that cannot pin fails the boot before it starts
 */
public record BootRequest(
    String runId,
    String arch,
    Path kernel,
    Path initrd,
    String cmdlineExtra,
    List<String> guestParams,
    int vcpus,
    int memoryMib,
    Duration timeout,
    Path workDir,
    VolumeShare volume,
    boolean pinVcpus) {

  public BootRequest {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(arch, "arch");
    Objects.requireNonNull(kernel, "kernel");
    Objects.requireNonNull(initrd, "initrd");
    cmdlineExtra = cmdlineExtra == null ? "" : cmdlineExtra;
    guestParams = List.copyOf(guestParams == null ? List.of() : guestParams);
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(workDir, "workDir");
  }

  /** A boot without a host volume whose vCPUs are not pinned. */
  public BootRequest(String runId, String arch, Path kernel, Path initrd, String cmdlineExtra,
      List<String> guestParams, int vcpus, int memoryMib, Duration timeout, Path workDir) {
    this(runId, arch, kernel, initrd, cmdlineExtra, guestParams, vcpus, memoryMib, timeout, workDir, null, false);
  }

  /** A boot whose vCPUs are not pinned. */
  public BootRequest(String runId, String arch, Path kernel, Path initrd, String cmdlineExtra,
      List<String> guestParams, int vcpus, int memoryMib, Duration timeout, Path workDir, VolumeShare volume) {
    this(runId, arch, kernel, initrd, cmdlineExtra, guestParams, vcpus, memoryMib, timeout, workDir, volume, false);
  }
}
