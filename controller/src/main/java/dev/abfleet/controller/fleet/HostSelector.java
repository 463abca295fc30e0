package dev.abfleet.controller.fleet;

import java.util.List;
import java.util.Map;

/**
 * Which hosts may run an experiment.
 *
 * @param hypervisor "qemu", "vz" or "sim"; empty = qemu
 * @param arch "x86_64" or "aarch64"; empty = any
 * @param labels every label must be equal on the host; empty = any
 * @param hosts explicit host ids; empty = any matching host
 */
public record HostSelector(
    String hypervisor, String arch, Map<String, String> labels, List<String> hosts) {
  public static final String DEFAULT_HYPERVISOR = "qemu";

  public HostSelector {
    hypervisor = hypervisor == null || hypervisor.isEmpty() ? DEFAULT_HYPERVISOR : hypervisor;
    arch = arch == null ? "" : arch;
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    hosts = hosts == null ? List.of() : List.copyOf(hosts);
  }

  public static HostSelector any() {
    return new HostSelector("", "", Map.of(), List.of());
  }

  /** True when the host can run this selector's boots. */
  public boolean matches(HostCapabilities host) {
    List<String> accelerators = host.hypervisors().getOrDefault(hypervisor, List.of());
    if (accelerators.isEmpty()) {
      return false;
    }
    if (!arch.isEmpty() && !arch.equals(host.arch())) {
      return false;
    }
    if (!hosts.isEmpty() && !hosts.contains(host.hostId())) {
      return false;
    }
    return labels.entrySet().stream()
        .allMatch(e -> e.getValue().equals(host.labels().get(e.getKey())));
  }
}
