package dev.abfleet.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A host fact that changed between two boots of one experiment on the same host (a QEMU upgrade,
 * a microcode update, SMT or THP switched): boots on either side of it may differ for that
 * reason and not the kernels'. Reported beside the verdict with the first boot that saw the new
 * value; never part of the verdict.
 *
 * @param host the host's id
 * @param fact the fact's JSON name in {@code boots[].host.facts}, e.g. {@code hypervisor_version}
 * @param from its value in the earlier boots
 * @param to its value from {@code firstRun} on
 * @param firstRun the run id of the first boot with the new value
 */
public record HostFactChange(String host, String fact, String from, String to, String firstRun) {

  /** The facts that decide whether boots compare, by their JSON names. */
  private static final Map<String, Function<BootHost.Facts, String>> FACTS = facts();

  private static Map<String, Function<BootHost.Facts, String>> facts() {
    Map<String, Function<BootHost.Facts, String>> f = new LinkedHashMap<>();
    f.put("hypervisor_version", BootHost.Facts::hypervisorVersion);
    f.put("host_kernel", BootHost.Facts::hostKernel);
    f.put("cpu_model", BootHost.Facts::cpuModel);
    f.put("microcode", BootHost.Facts::microcode);
    f.put("smt", BootHost.Facts::smt);
    f.put("cpufreq_governor", BootHost.Facts::cpufreqGovernor);
    f.put("boost", BootHost.Facts::boost);
    f.put("thp", BootHost.Facts::thp);
    f.put("memory_mib", facts -> facts.memoryMib() > 0 ? Long.toString(facts.memoryMib()) : "");
    return f;
  }

  /**
   * Every change of a fact between consecutive boots (by start time, then as listed) on each
   * host; a value the worker could not read ("") is no change. Empty for boots without facts.
   */
  public static List<HostFactChange> of(Report r) {
    if (r.run() == null) {
      return List.of();
    }
    Map<String, List<BootRecord>> byHost = new LinkedHashMap<>();
    for (BootRecord b : r.run().boots()) {
      if (b.run() != null && b.run().host() != null && b.run().host().facts() != BootHost.Facts.NONE) {
        byHost.computeIfAbsent(b.host(), k -> new ArrayList<>()).add(b);
      }
    }
    List<HostFactChange> changes = new ArrayList<>();
    byHost.forEach((host, boots) -> {
      List<BootRecord> ordered = new ArrayList<>(boots);
      ordered.sort(Comparator.comparingLong(b -> b.run().startedAtMs()));
      Map<String, BootHost.Facts> facts = new LinkedHashMap<>();
      ordered.forEach(b -> facts.put(b.id(), b.run().host().facts()));
      changes.addAll(along(host, facts));
    });
    return changes;
  }

  /**
   * Every change of a fact along one host's boots ({@code facts}: run id -> the boot's facts, in
   * the order the boots ran); a value the worker could not read ("") is no change.
   */
  public static List<HostFactChange> along(String host, Map<String, BootHost.Facts> facts) {
    List<HostFactChange> changes = new ArrayList<>();
    FACTS.forEach((name, fact) -> {
      String last = "";
      for (Map.Entry<String, BootHost.Facts> boot : facts.entrySet()) {
        String now = fact.apply(boot.getValue());
        if (now.isEmpty()) {
          continue;
        }
        if (!last.isEmpty() && !last.equals(now)) {
          changes.add(new HostFactChange(host, name, last, now, boot.getKey()));
        }
        last = now;
      }
    });
    return changes;
  }

  /** The report lines, one per change. */
  public static List<String> lines(Report r) {
    return of(r).stream().map(HostFactChange::line).toList();
  }

  /** "warning: host h1: hypervisor_version changed during the experiment: 'A' -> 'B' from run r2b; ..." */
  public String line() {
    return "warning: host " + host + ": " + fact + " changed during the experiment: '" + from + "' -> '" + to
        + "' from run " + firstRun + "; boots on either side may differ because of the host, not the kernels";
  }
}
