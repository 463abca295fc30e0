package dev.abfleet.controller.fleet;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a worker host can do, as it said in its hello.
 *
 * @param hypervisors hypervisor name -> accelerators that ran a guest in the probe, best first
 * @param memoryMib host memory in MiB
 * @param hypervisorVersions hypervisor name -> version of its binary; absent = unknown
 * @param volumeTransports hypervisor name -> host-shared volume transports that work with it
 *     here, preferred first ("virtiofs", "9p"); absent = none
 * @param guestArches hypervisor name -> guest architectures it boots here ("x86_64",
 *     "aarch64"); absent = the host's own architecture only
 * @param unpinnable hypervisors that cannot pin vCPU threads to host CPUs here (VZ); a pinned
 *     arm never runs on them
 * @param buildArches kernel architectures the host builds ("x86_64", "aarch64"); empty = it
 *     takes no kernel builds
 * @param toolchain the host's toolchain identity for builds; empty = unknown
 */
public record HostCapabilities(
    String hostId,
    String arch,
    int cpus,
    long memoryMib,
    Map<String, String> labels,
    Map<String, List<String>> hypervisors,
    String cpuModel,
    String hostKernel,
    String agentVersion,
    Map<String, String> hypervisorVersions,
    Map<String, List<String>> volumeTransports,
    Map<String, List<String>> guestArches,
    Set<String> unpinnable,
    List<String> buildArches,
    String toolchain) {
  public HostCapabilities {
    buildArches = buildArches == null ? List.of() : List.copyOf(buildArches);
    toolchain = toolchain == null ? "" : toolchain;
    unpinnable = unpinnable == null ? Set.of() : Set.copyOf(unpinnable);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    hypervisors = hypervisors == null ? Map.of() : Map.copyOf(hypervisors);
    arch = arch == null ? "" : arch;
    cpuModel = cpuModel == null ? "" : cpuModel;
    hostKernel = hostKernel == null ? "" : hostKernel;
    agentVersion = agentVersion == null ? "" : agentVersion;
    hypervisorVersions = hypervisorVersions == null ? Map.of() : Map.copyOf(hypervisorVersions);
    volumeTransports = volumeTransports == null ? Map.of() : Map.copyOf(volumeTransports);
    guestArches = guestArches == null ? Map.of() : Map.copyOf(guestArches);
  }

  /** Capabilities of a host that builds no kernels. */
  public HostCapabilities(String hostId, String arch, int cpus, long memoryMib,
      Map<String, String> labels, Map<String, List<String>> hypervisors, String cpuModel,
      String hostKernel, String agentVersion, Map<String, String> hypervisorVersions,
      Map<String, List<String>> volumeTransports, Map<String, List<String>> guestArches,
      Set<String> unpinnable) {
    this(hostId, arch, cpus, memoryMib, labels, hypervisors, cpuModel, hostKernel, agentVersion,
        hypervisorVersions, volumeTransports, guestArches, unpinnable, List.of(), "");
  }

  /** These capabilities, building kernels of {@code arches} with {@code toolchain}. */
  public HostCapabilities building(List<String> arches, String toolchain) {
    return new HostCapabilities(hostId, arch, cpus, memoryMib, labels, hypervisors, cpuModel,
        hostKernel, agentVersion, hypervisorVersions, volumeTransports, guestArches, unpinnable,
        arches, toolchain);
  }

  /** Capabilities whose hypervisors all pin vCPUs. */
  public HostCapabilities(String hostId, String arch, int cpus, long memoryMib,
      Map<String, String> labels, Map<String, List<String>> hypervisors, String cpuModel,
      String hostKernel, String agentVersion, Map<String, String> hypervisorVersions,
      Map<String, List<String>> volumeTransports, Map<String, List<String>> guestArches) {
    this(hostId, arch, cpus, memoryMib, labels, hypervisors, cpuModel, hostKernel, agentVersion,
        hypervisorVersions, volumeTransports, guestArches, Set.of());
  }

  /** True when {@code hypervisor} pins each vCPU thread to a host CPU of its own here. */
  public boolean pins(String hypervisor) {
    return !unpinnable.contains(hypervisor);
  }

  /** Capabilities whose hypervisors boot guests of the host's own architecture only. */
  public HostCapabilities(String hostId, String arch, int cpus, long memoryMib,
      Map<String, String> labels, Map<String, List<String>> hypervisors, String cpuModel,
      String hostKernel, String agentVersion, Map<String, String> hypervisorVersions,
      Map<String, List<String>> volumeTransports) {
    this(hostId, arch, cpus, memoryMib, labels, hypervisors, cpuModel, hostKernel, agentVersion,
        hypervisorVersions, volumeTransports, Map.of());
  }

  /** Guest architectures {@code hypervisor} boots here: as advertised, else the host's own. */
  public List<String> guestArchesOf(String hypervisor) {
    List<String> listed = guestArches.get(hypervisor);
    if (listed != null && !listed.isEmpty()) {
      return listed;
    }
    return arch.isEmpty() ? List.of() : List.of(arch);
  }

  /** True when {@code hypervisor} boots guests of {@code guestArch} here. */
  public boolean bootsGuestArch(String hypervisor, String guestArch) {
    return guestArchesOf(hypervisor).contains(guestArch);
  }

  /** Capabilities without volume transports. */
  public HostCapabilities(String hostId, String arch, int cpus, long memoryMib,
      Map<String, String> labels, Map<String, List<String>> hypervisors, String cpuModel,
      String hostKernel, String agentVersion, Map<String, String> hypervisorVersions) {
    this(hostId, arch, cpus, memoryMib, labels, hypervisors, cpuModel, hostKernel, agentVersion,
        hypervisorVersions, Map.of(), Map.of());
  }

  /** Capabilities without hypervisor versions. */
  public HostCapabilities(String hostId, String arch, int cpus, long memoryMib,
      Map<String, String> labels, Map<String, List<String>> hypervisors, String cpuModel,
      String hostKernel, String agentVersion) {
    this(hostId, arch, cpus, memoryMib, labels, hypervisors, cpuModel, hostKernel, agentVersion,
        Map.of(), Map.of(), Map.of());
  }
}
