package dev.abfleet.config;

import dev.abfleet.model.Arch;

import dev.abfleet.model.Cron;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The {@code schedules:} section of fleet.yaml; every problem names its file:line and the fix. */
final class FleetConfigSchedules {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Set<String> KEYS =
      Set.of("name", "cron", "benchmark", "candidate", "baseline", "pairs", "hosts", "kind", "kernel",
          "min_change");

  private FleetConfigSchedules() {}

  static List<FleetConfig.Schedule> parse(YamlNode list, Set<String> benchmarks, int defaultPairs) {
    List<FleetConfig.Schedule> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (YamlNode item : list.sequence()) {
      Map<String, YamlNode> keys = item.mapping(KEYS);
      FleetConfig.Schedule s = schedule(item, benchmarks, defaultPairs)
          .withMinChange(keys.containsKey("min_change") ? keys.get("min_change").number(0, 1) : 0);
      if (!names.add(s.name())) {
        throw item.problem("schedule name '" + s.name() + "' is used twice; give each schedule its own name"
            + " (it names the history file)");
      }
      out.add(s);
    }
    return List.copyOf(out);
  }

  private static FleetConfig.Schedule schedule(YamlNode n, Set<String> benchmarks, int defaultPairs) {
    Map<String, YamlNode> m = n.mapping(KEYS);
    String kind = m.containsKey("kind") ? m.get("kind").oneOf(List.of(FleetConfig.Schedule.AB, FleetConfig.Schedule.AA))
        : FleetConfig.Schedule.AB;
    if (kind.equals(FleetConfig.Schedule.AA)) {
      return aa(n, m, benchmarks, defaultPairs);
    }
    if (m.containsKey("kernel")) {
      throw m.get("kernel").problem(n.path() + " has kernel:, which only an A/A schedule takes; add kind: aa, or"
          + " give candidate: and baseline: instead");
    }
    for (String required : List.of("name", "cron", "candidate", "baseline")) {
      if (!m.containsKey(required)) {
        throw n.problem(n.path() + " has no " + required + "; every schedule needs name, cron, candidate"
            + " and baseline, e.g. cron: \"30 2 * * *\"");
      }
    }
    return new FleetConfig.Schedule(name(m), cron(m), benchmark(m, benchmarks),
        candidate(m.get("candidate")), baseline(m.get("baseline")), pairs(m, defaultPairs), hosts(m), n.line());
  }

  /** kind: aa: name, cron and kernel (path or newest_in), booted as both arms; no candidate or baseline. */
  private static FleetConfig.Schedule aa(YamlNode n, Map<String, YamlNode> m, Set<String> benchmarks,
      int defaultPairs) {
    for (String arm : List.of("candidate", "baseline")) {
      if (m.containsKey(arm)) {
        throw m.get(arm).problem(n.path() + " is kind: aa, which boots one kernel as both arms; replace "
            + arm + ": with kernel: {path: KERNEL} or kernel: {newest_in: DIR}");
      }
    }
    for (String required : List.of("name", "cron", "kernel")) {
      if (!m.containsKey(required)) {
        throw n.problem(n.path() + " has no " + required + "; a kind: aa schedule needs name, cron and kernel,"
            + " e.g. kernel: {path: /boot/vmlinuz}");
      }
    }
    int pairs = pairs(m, defaultPairs);
    if (pairs < 2) {
      throw (m.containsKey("pairs") ? m.get("pairs") : n).problem(n.path() + ".pairs is " + pairs + "; an A/A schedule measures the paired spread, which"
          + " needs at least 2 pairs; set pairs: 2 or more");
    }
    return new FleetConfig.Schedule(name(m), cron(m), benchmark(m, benchmarks), candidate(m.get("kernel")),
        FleetConfig.Baseline.SAME_KERNEL, pairs, hosts(m), n.line(), FleetConfig.Schedule.AA);
  }

  private static String name(Map<String, YamlNode> m) {
    String name = m.get("name").string();
    if (!NAME.matcher(name).matches()) {
      throw m.get("name").problem("schedule name '" + name + "' may only use letters, digits, '_', '.', '-'"
          + " (at most 64)");
    }
    return name;
  }

  private static Cron cron(Map<String, YamlNode> m) {
    Cron.Parsed cron = Cron.parse(m.get("cron").string());
    if (!cron.ok()) {
      throw m.get("cron").problem(cron.error());
    }
    return cron.cron();
  }

  private static String benchmark(Map<String, YamlNode> m, Set<String> benchmarks) {
    return m.containsKey("benchmark") ? m.get("benchmark").oneOf(List.copyOf(benchmarks)) : null;
  }

  private static int pairs(Map<String, YamlNode> m, int defaultPairs) {
    return m.containsKey("pairs") ? m.get("pairs").integer(1, 10_000) : defaultPairs;
  }

  private static FleetConfig.Hosts hosts(Map<String, YamlNode> m) {
    return m.containsKey("hosts") ? hosts(m.get("hosts")) : new FleetConfig.Hosts("qemu", "", Map.of());
  }

  private static FleetConfig.Candidate candidate(YamlNode n) {
    Map<String, YamlNode> m = n.mapping(Set.of("path", "newest_in"));
    if (m.size() != 1) {
      throw n.problem(n.path() + " needs exactly one of path (a kernel image) or newest_in (a directory"
          + " whose newest vmlinuz* is taken)");
    }
    var e = m.entrySet().iterator().next();
    return new FleetConfig.Candidate(e.getKey(), nonEmpty(e.getValue()));
  }

  private static FleetConfig.Baseline baseline(YamlNode n) {
    String kind = scalarOrNull(n);
    if (kind != null) {
      if (!kind.equals("last_accepted")) {
        throw n.problem(n.path() + " is '" + kind + "'; expected last_accepted, {last_accepted: KERNEL}"
            + " (KERNEL until a run is accepted) or {pinned: KERNEL}");
      }
      return new FleetConfig.Baseline(kind, "");
    }
    Map<String, YamlNode> m = n.mapping(Set.of("pinned", "last_accepted"));
    if (m.size() != 1) {
      throw n.problem(n.path() + " needs exactly one of pinned: KERNEL or last_accepted: KERNEL");
    }
    var e = m.entrySet().iterator().next();
    return new FleetConfig.Baseline(e.getKey(), nonEmpty(e.getValue()));
  }

  private static FleetConfig.Hosts hosts(YamlNode n) {
    Map<String, YamlNode> m = n.mapping(Set.of("hypervisor", "arch", "labels", "class_by"));
    List<String> hypervisors = m.containsKey("hypervisor") ? hypervisors(m.get("hypervisor")) : List.of("qemu");
    String arch = m.containsKey("arch") ? m.get("arch").oneOf(Arch.NAMES) : "";
    Map<String, String> labels = new LinkedHashMap<>();
    if (m.containsKey("labels")) {
      m.get("labels").mapping(null).forEach((k, v) -> labels.put(k, v.string()));
    }
    List<String> classBy = m.containsKey("class_by") ? classBy(m.get("class_by")) : List.of();
    return new FleetConfig.Hosts(hypervisors, arch, labels, classBy);
  }

  /** hosts.hypervisor: one value (qemu) or a list ([qemu, vz]) for a cross-host comparison. */
  private static List<String> hypervisors(YamlNode n) {
    String one = scalarOrNull(n);
    List<YamlNode> items = one != null ? List.of(n) : listOf(n, "[qemu, vz]");
    List<String> values = items.stream().map(YamlNode::string).toList();
    HostChoices.hypervisors(values).ifPresent(issue -> {
      YamlNode at = issue.index() < 0 ? n : items.get(issue.index());
      throw at.problem(at.path() + ": " + issue.message());
    });
    return values;
  }

  /** hosts.class_by: a list of host facts (cpu_model, arch, host_kernel, hypervisor_version) and label:KEY. */
  private static List<String> classBy(YamlNode n) {
    List<YamlNode> items = listOf(n, "[label:cpu] or [cpu_model, arch]");
    List<String> values = items.stream().map(YamlNode::string).toList();
    HostChoices.classBy(values).ifPresent(issue -> {
      YamlNode at = issue.index() < 0 ? n : items.get(issue.index());
      throw at.problem(at.path() + ": " + issue.message());
    });
    return values;
  }

  private static List<YamlNode> listOf(YamlNode n, String example) {
    if (scalarOrNull(n) != null) {
      throw n.problem(n.path() + " must be a list, e.g. " + example);
    }
    return n.sequence();
  }

  /** The node's value when it is a single value; null for a mapping or a list. */
  private static String scalarOrNull(YamlNode n) {
    try {
      return n.string();
    } catch (dev.abfleet.config.Problem notScalar) {
      return null;
    }
  }

  private static String nonEmpty(YamlNode n) {
    String s = n.string().trim();
    if (s.isEmpty()) {
      throw n.problem(n.path() + " is empty; give a path");
    }
    return s;
  }
}
