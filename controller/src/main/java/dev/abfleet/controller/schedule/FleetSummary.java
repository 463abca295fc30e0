package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Whether a selector can ever be satisfied, and what the fleet has when it cannot. */
public final class FleetSummary {
  private FleetSummary() {}

  /**
   * Why no host known since the controller started can ever run {@code selector}; empty when one
   * can, or when no host is known at all (workers may still be starting: the experiment queues).
   */
  public static Optional<String> unsatisfiable(
      HostSelector selector, Collection<HostCapabilities> known) {
    if (known.isEmpty() || known.stream().anyMatch(selector::matches)) {
      return Optional.empty();
    }
    HostSelector anyArch = selector.forGuestArch("");
    if (!selector.guestArch().isEmpty() && known.stream().anyMatch(anyArch::matches)) {
      return Optional.of("no host boots " + selector.guestArch() + " guests: the hosts matching "
          + describe(anyArch) + " boot " + guestArches(anyArch, known) + " (QEMU boots aarch64 guests"
          + " with qemu-system-aarch64 from qemu-system-arm, x86_64 guests with qemu-system-x86_64 from"
          + " qemu-system-x86). Use a kernel built for those, or connect a worker that boots "
          + selector.guestArch() + ".");
    }
    if (selector.hostVolume() && !selector.volumeTransports().isEmpty()
        && known.stream().anyMatch(selector.needingTransports(List.of())::matches)) {
      return Optional.of("no host offers volume transport " + String.join(" and ", selector.volumeTransports())
          + ": the hosts matching " + describe(selector) + " offer others (virtiofs needs a virtiofsd: the"
          + " virtiofsd package, or QEMU's own /usr/lib/qemu/virtiofsd with the worker running as root; see the"
          + " worker's log). Use transport: auto, or connect a worker that has it.");
    }
    if (selector.hostVolume() && known.stream().anyMatch(selector::matchesAnyVolume)) {
      return Optional.of("no host can run volume host: no host matching " + describe(selector)
          + " advertises a volume transport for its hypervisor (QEMU offers 9p when built with virtfs,"
          + " virtiofs with virtiofsd installed; see the worker's log). Run the benchmark on volume guest"
          + " or connect a worker that has one.");
    }
    Optional<String> tooSmall = tooFewCpus(selector, known);
    if (tooSmall.isPresent()) {
      return tooSmall;
    }
    List<String> cannotPin = known.stream().filter(selector::matchesButCannotPin)
        .map(h -> selector.hypervisorFor(h)).distinct().sorted().toList();
    if (!cannotPin.isEmpty()) {
      return Optional.of("arm " + selector.pin().arm() + " has pinned vCPUs, and the hosts matching "
          + describe(selector) + " run it on " + String.join(", ", cannotPin) + ", which cannot pin vCPU"
          + " threads. Run the pinned arm on qemu, or leave it unpinned.");
    }
    String why = "no host matches " + describe(selector) + "; the fleet has: " + describe(known);
    if (!selector.hosts().isEmpty()) {
      why += " (host ids: " + known.stream().map(HostCapabilities::hostId).sorted().limit(10)
          .collect(Collectors.joining(", ")) + (known.size() > 10 ? ", ..." : "") + ")";
    }
    return Optional.of(why + ". Change the selector or connect a matching worker.");
  }

  /** The guest architectures the hosts matching {@code selector} boot, e.g. "x86_64". */
  private static String guestArches(HostSelector selector, Collection<HostCapabilities> known) {
    return known.stream().filter(selector::matches)
        .flatMap(h -> h.guestArchesOf(selector.hypervisorFor(h)).stream())
        .distinct().sorted().collect(Collectors.joining(", "));
  }

  /** When hosts match but none has the CPUs to pin the pinned arm: say so, with the largest. */
  private static Optional<String> tooFewCpus(HostSelector selector, Collection<HostCapabilities> known) {
    OptionalInt largest = known.stream().filter(h -> selector.matchesUnpinned(h) && !selector.matchesButCannotPin(h))
        .mapToInt(HostCapabilities::cpus).max();
    if (largest.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(selector.pin().describe() + "; the largest host matching " + describe(selector) + " has "
        + largest.getAsInt() + ". Pin fewer vCPUs, leave the arm unpinned, or connect a worker with more CPUs.");
  }

  /** The selector as key=value pairs, e.g. "hypervisor=vz arch=aarch64 labels={pool=ci}". */
  public static String describe(HostSelector selector) {
    List<String> parts = new ArrayList<>();
    parts.add("hypervisor=" + String.join("|", selector.allowedHypervisors()));
    if (!selector.arch().isEmpty()) {
      parts.add("arch=" + selector.arch());
    }
    if (!selector.guestArch().isEmpty()) {
      parts.add("guest=" + selector.guestArch());
    }
    if (!selector.labels().isEmpty()) {
      parts.add("labels=" + new TreeMap<>(selector.labels()));
    }
    if (!selector.hosts().isEmpty()) {
      parts.add("hosts=" + selector.hosts());
    }
    return String.join(" ", parts);
  }

  /** Hosts grouped by what they can run, e.g. "3 x qemu/x86_64 (tcg), 1 x vz/aarch64 (vz)". */
  public static String describe(Collection<HostCapabilities> hosts) {
    Map<String, Integer> counts = new TreeMap<>();
    hosts.forEach(h -> counts.merge(kind(h), 1, Integer::sum));
    return counts.entrySet().stream().map(e -> e.getValue() + " x " + e.getKey())
        .collect(Collectors.joining(", "));
  }

  private static String kind(HostCapabilities h) {
    String arch = h.arch().isEmpty() ? "unknown-arch" : h.arch();
    String labels = h.labels().isEmpty() ? "" : " " + new TreeMap<>(h.labels());
    if (h.hypervisors().isEmpty()) {
      return "no hypervisor/" + arch + labels;
    }
    return new TreeMap<>(h.hypervisors()).entrySet().stream()
        .map(e -> e.getKey() + "/" + arch + " ("
            + (e.getValue().isEmpty() ? "unusable" : String.join(",", e.getValue())) + ")")
        .collect(Collectors.joining(" + ")) + labels;
  }
}
