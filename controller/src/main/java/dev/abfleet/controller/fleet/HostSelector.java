package dev.abfleet.controller.fleet;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * Which hosts may run an experiment.
 *
 * @param hypervisor "qemu", "vz" or "sim"; empty = the first of {@code hypervisors}, or qemu
 * @param arch "x86_64" or "aarch64"; empty = any
 * @param labels every label must be equal on the host; empty = any
 * @param hosts explicit host ids; empty = any matching host
 * @param hypervisors several hypervisors (a cross-host comparison): a host matches when it has
 *     any of them and each block uses the first listed that the host has; empty = {@code
 *     hypervisor} alone
 * @param hostVolume the benchmark runs on a host volume: only hosts whose hypervisor for the
 *     block offers a volume transport match. Not chosen by the client: derived from the
 *     benchmark (see ExperimentSpec)
 * @param pin CPUs the experiment's pinned arms need; {@link PinNeed#NONE} = none is pinned. Not
 *     chosen by the client: derived from the arms (see ExperimentSpec)
 * @param guestArch the guest architecture of the arms' kernels: only hosts whose hypervisor for
 *     the block boots it match; empty = unknown (any host). Not chosen by the client: derived from
 *     the arms (see ExperimentSpec)
 * @param buildArch non-empty = a kernel build for this architecture: only hosts that build it
 *     match, whatever their hypervisors; empty = boots (left out of the journal, so experiments'
 *     events stay byte for byte as before)
 * @param volumeTransports the host-volume transports the arms ask for by name ("virtiofs",
 *     "9p"): a matching host offers every one; empty = any transport (left out of the journal
 *     when empty). Not chosen by the client: derived from the benchmark and arms
 */
public record HostSelector(
    String hypervisor, String arch, Map<String, String> labels, List<String> hosts,
    List<String> hypervisors, boolean hostVolume, PinNeed pin, String guestArch,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) String buildArch,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> volumeTransports) {
  public static final String DEFAULT_HYPERVISOR = "qemu";

  public HostSelector {
    hypervisors = hypervisors == null ? List.of() : List.copyOf(hypervisors);
    if (hypervisor == null || hypervisor.isEmpty()) {
      hypervisor = hypervisors.isEmpty() ? DEFAULT_HYPERVISOR : hypervisors.get(0);
    }
    arch = arch == null ? "" : arch;
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    hosts = hosts == null ? List.of() : List.copyOf(hosts);
    pin = pin == null ? PinNeed.NONE : pin;
    guestArch = guestArch == null ? "" : guestArch;
    buildArch = buildArch == null ? "" : buildArch;
    volumeTransports = volumeTransports == null ? List.of() : List.copyOf(volumeTransports);
  }

  /** A selector that takes any volume transport. */
  public HostSelector(String hypervisor, String arch, Map<String, String> labels, List<String> hosts,
      List<String> hypervisors, boolean hostVolume, PinNeed pin, String guestArch, String buildArch) {
    this(hypervisor, arch, labels, hosts, hypervisors, hostVolume, pin, guestArch, buildArch, List.of());
  }

  /** A selector for boots. */
  public HostSelector(String hypervisor, String arch, Map<String, String> labels, List<String> hosts,
      List<String> hypervisors, boolean hostVolume, PinNeed pin, String guestArch) {
    this(hypervisor, arch, labels, hosts, hypervisors, hostVolume, pin, guestArch, "");
  }

  /** Any host that builds kernels of {@code arch}. */
  public static HostSelector forBuild(String arch) {
    return new HostSelector("", "", Map.of(), List.of(), List.of(), false, PinNeed.NONE, "", arch);
  }

  /** A guest-volume benchmark with no pinned arm. */
  public HostSelector(String hypervisor, String arch, Map<String, String> labels, List<String> hosts,
      List<String> hypervisors) {
    this(hypervisor, arch, labels, hosts, hypervisors, false, PinNeed.NONE, "");
  }

  /** This selector for a benchmark that does ({@code true}) or does not run on a host volume. */
  public HostSelector needingVolume(boolean needed) {
    return new HostSelector(hypervisor, arch, labels, hosts, hypervisors, needed, pin, guestArch, buildArch,
        volumeTransports);
  }

  /** This selector for arms whose host volume goes over {@code transports} by name (empty = any). */
  public HostSelector needingTransports(List<String> transports) {
    return new HostSelector(hypervisor, arch, labels, hosts, hypervisors, hostVolume, pin, guestArch, buildArch,
        transports);
  }

  /** This selector for an experiment whose pinned arms need {@code need}. */
  public HostSelector pinning(PinNeed need) {
    return new HostSelector(hypervisor, arch, labels, hosts, hypervisors, hostVolume, need, guestArch, buildArch,
        volumeTransports);
  }

  /** This selector for arms whose kernels are of guest architecture {@code arch} (empty = unknown). */
  public HostSelector forGuestArch(String arch) {
    return new HostSelector(hypervisor, this.arch, labels, hosts, hypervisors, hostVolume, pin, arch, buildArch,
        volumeTransports);
  }

  /**
   * The volume transport a block on this host uses: the first one asked for by name, else the
   * first that the block's hypervisor offers; empty when it does not offer it (or any), the host
   * is unknown, or the benchmark needs no host volume.
   */
  public String volumeTransportFor(HostCapabilities host) {
    if (!hostVolume || host == null) {
      return "";
    }
    List<String> offered = host.volumeTransports().getOrDefault(hypervisorFor(host), List.of());
    if (!offered.containsAll(volumeTransports)) {
      return "";
    }
    return !volumeTransports.isEmpty() ? volumeTransports.get(0) : offered.isEmpty() ? "" : offered.get(0);
  }

  /** One hypervisor. */
  public HostSelector(String hypervisor, String arch, Map<String, String> labels,
      List<String> hosts) {
    this(hypervisor, arch, labels, hosts, List.of());
  }

  public static HostSelector any() {
    return new HostSelector("", "", Map.of(), List.of());
  }

  /** The hypervisors a host may offer, in preference order. */
  public List<String> allowedHypervisors() {
    return hypervisors.isEmpty() ? List.of(hypervisor) : hypervisors;
  }

  /**
   * The hypervisor a block on this host uses: the first allowed one the host can run guests
   * with; {@link #hypervisor()} when it has none (or the host is unknown).
   */
  public String hypervisorFor(HostCapabilities host) {
    if (host == null) {
      return hypervisor;
    }
    List<String> usable = allowedHypervisors().stream()
        .filter(h -> !host.hypervisors().getOrDefault(h, List.of()).isEmpty()).toList();
    // A pinned arm takes the first usable hypervisor that pins, when the host has one.
    return usable.stream().filter(h -> pin.vcpus() == 0 || host.pins(h)).findFirst()
        .orElse(usable.isEmpty() ? hypervisor : usable.get(0));
  }

  /**
   * True when the host can run this selector's boots: on a host volume when the benchmark needs
   * one, with a CPU for each vCPU of a pinned arm.
   */
  public boolean matches(HostCapabilities host) {
    if (!buildArch.isEmpty()) {
      return host.buildArches().contains(buildArch) && inPlace(host);
    }
    return matchesAnyVolume(host) && volumeFits(host);
  }

  /** True when the host matches everything but, perhaps, the host volume's transport. */
  public boolean matchesAnyVolume(HostCapabilities host) {
    return matchesPlace(host) && pinFits(host);
  }

  /**
   * True when the host can pin the pinned arms' vCPUs: a CPU for each, under a hypervisor that
   * pins (always true when no arm is pinned).
   */
  private boolean pinFits(HostCapabilities host) {
    return pin.fits(host) && (pin.vcpus() == 0 || host.pins(hypervisorFor(host)));
  }

  /** True when the host matches all but the pinning, whatever its CPUs: its hypervisor cannot pin. */
  public boolean matchesButCannotPin(HostCapabilities host) {
    return matchesUnpinned(host) && pin.vcpus() > 0 && !host.pins(hypervisorFor(host));
  }

  /** True when the host matches everything but, perhaps, the CPUs that pinning needs. */
  public boolean matchesUnpinned(HostCapabilities host) {
    return matchesPlace(host) && volumeFits(host);
  }

  private boolean volumeFits(HostCapabilities host) {
    return !hostVolume || !volumeTransportFor(host).isEmpty();
  }

  /** Hypervisor (booting the guest architecture), arch, explicit hosts and labels. */
  private boolean matchesPlace(HostCapabilities host) {
    boolean usable = allowedHypervisors().stream()
        .anyMatch(h -> !host.hypervisors().getOrDefault(h, List.of()).isEmpty());
    if (!usable) {
      return false;
    }
    if (!guestArch.isEmpty() && !host.bootsGuestArch(hypervisorFor(host), guestArch)) {
      return false;
    }
    return inPlace(host);
  }

  /** The host's arch, explicit hosts and labels. */
  private boolean inPlace(HostCapabilities host) {
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
