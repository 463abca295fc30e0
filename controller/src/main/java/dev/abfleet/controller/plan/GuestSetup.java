package dev.abfleet.controller.plan;

import dev.abfleet.model.VolumeTransports;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * How an arm's guest is set up beyond kernel, command line and size.
 *
 * @param pinVcpus each vCPU thread pinned to a host CPU of its own (a "hard-pinned" arm)
 * @param modules kernel modules the guest loads before the harness, by name; the benchmark's
 *     volume transport adds its own
 * @param modulesDir the kernel's module tree on the worker host; empty = beside the kernel
 * @param volumeOptions mount options appended to the volume transport's defaults, e.g.
 *     "cache=loose"; empty = the defaults
 * @param arch guest architecture of the kernel, "x86_64" or "aarch64"; empty = unknown (the
 *     worker reads the kernel)
 * @param guestImage the guest image (init, busybox, harness for {@code arch}) staged like the
 *     kernel; null = the worker builds its own
 * @param modulesTree the kernel's module tree packed by the client and staged like the kernel;
 *     null = {@code modulesDir} (events written before trees were uploaded have none)
 * @param volumeTransport the arm's host-volume transport ("virtiofs", "9p"); empty = the benchmark's
 * @param volumeCache virtio-fs: the daemon's cache mode ("auto", "always", "none"); empty = auto
 *     (both left out of the journal when empty, so experiments' events stay byte for byte as before)
 */
public record GuestSetup(boolean pinVcpus, List<String> modules, String modulesDir,
    String volumeOptions, String arch, ArtifactRef guestImage, ArtifactRef modulesTree,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) String volumeTransport,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) String volumeCache) {
  public static final GuestSetup NONE = new GuestSetup(false, List.of(), "", "");
  /** virtiofsd's cache modes an arm may ask for. */
  public static final List<String> DAEMON_CACHES = VolumeTransports.CACHE_MODES;

  public GuestSetup {
    modules = modules == null ? List.of() : List.copyOf(modules);
    modulesDir = modulesDir == null ? "" : modulesDir;
    volumeOptions = volumeOptions == null ? "" : volumeOptions;
    arch = arch == null ? "" : arch;
    volumeTransport = volumeTransport == null ? "" : volumeTransport;
    volumeCache = volumeCache == null ? "" : volumeCache;
  }

  /** This guest with its host volume over {@code transport} and virtio-fs cache mode {@code cache}. */
  public GuestSetup withVolume(String transport, String cache) {
    return new GuestSetup(pinVcpus, modules, modulesDir, volumeOptions, arch, guestImage, modulesTree, transport, cache);
  }

  /** A guest whose volume, if any, goes over the benchmark's transport with the daemon's defaults. */
  public GuestSetup(boolean pinVcpus, List<String> modules, String modulesDir, String volumeOptions, String arch,
      ArtifactRef guestImage, ArtifactRef modulesTree) {
    this(pinVcpus, modules, modulesDir, volumeOptions, arch, guestImage, modulesTree, "", "");
  }

  /** A guest of unknown architecture whose image the worker builds. */
  public GuestSetup(boolean pinVcpus, List<String> modules, String modulesDir, String volumeOptions) {
    this(pinVcpus, modules, modulesDir, volumeOptions, "", null, null);
  }

  /** A guest whose module tree, if any, is {@code modulesDir} on the worker. */
  public GuestSetup(boolean pinVcpus, List<String> modules, String modulesDir, String volumeOptions, String arch,
      ArtifactRef guestImage) {
    this(pinVcpus, modules, modulesDir, volumeOptions, arch, guestImage, null);
  }
}
