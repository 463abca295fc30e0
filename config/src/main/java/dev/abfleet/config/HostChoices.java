package dev.abfleet.config;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks of the host choices of an experiment, shared by {@code abfleet ab} options and
 * fleet.yaml schedules: the hypervisors a host may offer and the class_by dimensions that split
 * a cross-host comparison into host classes. The controller checks the same at submit; checking
 * here first lets the message name the option or the fleet.yaml line.
 */
public final class HostChoices {
  /** Hypervisors a selector may name. */
  public static final List<String> HYPERVISORS = List.of("qemu", "vz", "sim");
  /** At most this many class_by dimensions (the controller's limit). */
  public static final int MAX_CLASS_BY = 4;
  private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_./-]{1,63}");

  /**
   * What is wrong with one value of a list.
   *
   * @param index position of the offending value in the list; -1 = the list as a whole
   */
  public record Issue(int index, String message) {}

  private HostChoices() {}

  /** Hypervisors: at least one, each known and listed once, sim never mixed with real ones. */
  public static Optional<Issue> hypervisors(List<String> listed) {
    if (listed.isEmpty()) {
      return Optional.of(new Issue(-1, "no hypervisor given; name one or more of qemu, vz, sim, e.g. qemu,vz"));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < listed.size(); i++) {
      String h = listed.get(i);
      if (!HYPERVISORS.contains(h)) {
        return Optional.of(new Issue(i, "unknown hypervisor '" + h + "'; expected qemu, vz or sim"));
      }
      if (!seen.add(h)) {
        return Optional.of(new Issue(i, "'" + h + "' is listed twice; list each hypervisor once"));
      }
    }
    if (seen.contains("sim") && seen.size() > 1) {
      return Optional.of(new Issue(-1, "sim cannot be mixed with real hypervisors (sim boots are never"
          + " compared with real boots); use sim alone"));
    }
    return Optional.empty();
  }

  /** class_by dimensions other than labels: the host facts a worker's hello reports. */
  public static final List<String> FACT_DIMENSIONS =
      List.of("cpu_model", "arch", "host_kernel", "hypervisor_version", "qemu_version");

  /** class_by: a fact of {@link #FACT_DIMENSIONS} or label:KEY, each once, at most {@link #MAX_CLASS_BY}. */
  public static Optional<Issue> classBy(List<String> dims) {
    if (dims.size() > MAX_CLASS_BY) {
      return Optional.of(new Issue(-1, dims.size() + " dimensions; use at most " + MAX_CLASS_BY));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < dims.size(); i++) {
      String d = dims.get(i);
      if (d.equals("hypervisor") || d.equals("accelerator")) {
        return Optional.of(new Issue(i, "'" + d + "' always separates host classes; remove it"));
      }
      if (d.startsWith("label:")) {
        if (!LABEL.matcher(d.substring("label:".length())).matches()) {
          return Optional.of(new Issue(i, "'" + d + "' does not name a label; use label:KEY with KEY of 1 to 63"
              + " of [A-Za-z0-9_./-], e.g. label:cpu"));
        }
      } else if (!FACT_DIMENSIONS.contains(d)) {
        return Optional.of(new Issue(i, "unknown dimension '" + d + "'; expected cpu_model, arch, host_kernel,"
            + " hypervisor_version (qemu_version) or label:KEY (e.g. label:cpu)"));
      }
      if (!seen.add(d)) {
        return Optional.of(new Issue(i, "'" + d + "' is listed twice; list each dimension once"));
      }
    }
    return Optional.empty();
  }

  /** A selector label key or value: 1 to 63 of [A-Za-z0-9_./-]. */
  public static boolean validLabel(String s) {
    return LABEL.matcher(s).matches();
  }
}
