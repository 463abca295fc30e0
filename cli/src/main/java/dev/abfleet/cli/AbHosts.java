package dev.abfleet.cli;

import dev.abfleet.model.Arch;

import dev.abfleet.config.Problem;

import dev.abfleet.config.HostChoices;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where an {@code abfleet ab} experiment runs and how its hosts are grouped: the embedded fleet
 * ({@code controller} null) or a running controller, the hypervisors a host may offer, the
 * selector labels, the class_by dimensions, the priority and the hosts' architecture (empty = any
 * host that boots the kernels' architecture). Validated on construction by {@link #of} and
 * {@link #withArch}; every message names the option and the fix.
 */
record AbHosts(String controller, List<String> hypervisors, Map<String, String> labels, List<String> classBy,
    String priority, String arch) {
  static final List<String> ARCHES = Arch.NAMES;
  static final List<String> PRIORITIES = List.of("pr", "adhoc", "nightly");
  private static final String ADD_CONTROLLER = "add --controller HOST:PORT to submit to a fleet";

  /**
   * Checks the options as given (null = not given).
   *
   * @param localWorkers --local-workers, null when not given
   */
  static AbHosts of(String controller, String priority, List<String> hypervisor, List<String> label,
      List<String> classBy, Integer localWorkers) {
    String target = controller == null ? null : ControllerAddress.check(controller);
    if (target != null && localWorkers != null) {
      throw new Problem("--local-workers and --controller both given; a fleet runs on its own workers, drop"
          + " --local-workers");
    }
    String prio = priority == null ? "pr" : priority;
    if (!PRIORITIES.contains(prio)) {
      throw new Problem("--priority " + prio + ": expected pr, adhoc or nightly (highest first; default pr)");
    }
    List<String> hv = hypervisor == null ? List.of("qemu") : hypervisor.stream().map(String::trim).toList();
    HostChoices.hypervisors(hv).ifPresent(issue -> {
      throw new Problem("--hypervisor " + String.join(",", hv) + ": " + issue.message());
    });
    List<String> dims = classBy == null ? List.of() : classBy.stream().map(String::trim).toList();
    HostChoices.classBy(dims).ifPresent(issue -> {
      throw new Problem("--class-by " + String.join(",", dims) + ": " + issue.message());
    });
    Map<String, String> labels = labels(label == null ? List.of() : label);
    if (target == null) {
      embeddedOnly(hv, labels, dims);
    }
    return new AbHosts(target, hv, Map.copyOf(labels), dims, prio, "");
  }

  /** These hosts restricted to CPU architecture {@code arch} ({@code --arch}); null = any. */
  AbHosts withArch(String arch) {
    if (arch == null) {
      return this;
    }
    if (!ARCHES.contains(arch)) {
      throw new Problem("--arch " + arch + ": expected x86_64 or aarch64");
    }
    return new AbHosts(controller, hypervisors, labels, classBy, priority, arch);
  }

  /** The embedded fleet is this machine's local workers: one host class, one hypervisor, no labels. */
  private static void embeddedOnly(List<String> hv, Map<String, String> labels, List<String> dims) {
    if (hv.contains("sim")) {
      throw new Problem("--hypervisor sim needs --controller HOST:PORT: the embedded fleet boots real kernels;"
          + " run sim workers with abfleet sim-fleet and submit to their controller");
    }
    if (hv.size() > 1) {
      throw new Problem("--hypervisor " + String.join(",", hv) + ": a cross-host comparison needs a fleet; the"
          + " embedded fleet has one hypervisor, give one or " + ADD_CONTROLLER);
    }
    if (!dims.isEmpty()) {
      throw new Problem("--class-by " + String.join(",", dims) + ": the embedded fleet's local workers are one"
          + " host class; " + ADD_CONTROLLER);
    }
    if (!labels.isEmpty()) {
      throw new Problem("--label selects fleet hosts; the embedded fleet's local workers are chosen by id;"
          + " " + ADD_CONTROLLER);
    }
  }

  private static Map<String, String> labels(List<String> given) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String kv : given) {
      int eq = kv.indexOf('=');
      String key = eq < 0 ? "" : kv.substring(0, eq).trim();
      String value = eq < 0 ? "" : kv.substring(eq + 1).trim();
      if (!HostChoices.validLabel(key) || !HostChoices.validLabel(value)) {
        throw new Problem("--label '" + kv + "': expected KEY=VALUE, each 1 to 63 of [A-Za-z0-9_./-],"
            + " e.g. --label rack=a");
      }
      String before = out.put(key, value);
      if (before != null && !before.equals(value)) {
        throw new Problem("--label " + key + " given as " + before + " and " + value + "; a host has one value"
            + " per label, give it once");
      }
    }
    return out;
  }

  boolean remote() {
    return controller != null;
  }

  boolean simulated() {
    return hypervisors.equals(List.of("sim"));
  }

  /** The selector: one hypervisor as {@code hypervisor}, several as {@code hypervisors}. */
  HostSelector.Builder selector(List<String> hostIds) {
    HostSelector.Builder b = HostSelector.newBuilder().putAllLabels(labels).addAllHosts(hostIds).setArch(arch);
    return hypervisors.size() == 1 ? b.setHypervisor(hypervisors.get(0)) : b.addAllHypervisors(hypervisors);
  }

  /** Adds class_by to the policy. */
  Policy.Builder classes(Policy.Builder policy) {
    return policy.addAllClassBy(classBy);
  }

  /** "hypervisor qemu,vz, class by label:cpu, priority pr" for the progress line. */
  String describe() {
    StringBuilder sb = new StringBuilder("hypervisor " + String.join(",", hypervisors));
    if (!arch.isEmpty()) {
      sb.append(", arch ").append(arch);
    }
    labels.forEach((k, v) -> sb.append(", label ").append(k).append('=').append(v));
    if (!classBy.isEmpty()) {
      sb.append(", class by ").append(String.join(",", classBy));
    }
    return sb.append(", priority ").append(priority).toString();
  }
}
