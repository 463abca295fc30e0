package dev.abfleet.cli.report;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** Facts every report format shows, derived from an {@link Experiment}. */
final class Reports {
  private Reports() {}

  static String baseline(Experiment e) {
    return e.getSpec().getArmsList().stream()
        .filter(a -> a.getRole().equals("baseline"))
        .map(Arm::getName)
        .findFirst()
        .orElse("?");
  }

  static List<String> candidates(Experiment e) {
    return e.getSpec().getArmsList().stream()
        .filter(a -> a.getRole().equals("candidate"))
        .map(Arm::getName)
        .toList();
  }

  /** The ceiling arm's name, or empty. */
  static String ceiling(Experiment e) {
    return e.getSpec().getArmsList().stream()
        .filter(a -> a.getRole().equals("ceiling"))
        .map(Arm::getName)
        .findFirst().orElse("");
  }

  /** What a report of simulated boots says first, in every format. */
  static final String SIMULATION = "SIMULATION: hypervisor sim, every figure comes from a performance model;"
      + " no kernel was booted";

  /** True when the experiment ran (or asked to run) on the simulated hypervisor. */
  static boolean simulation(Experiment e) {
    var selector = e.getSpec().getSelector();
    return selector.getHypervisor().equals("sim") || selector.getHypervisorsList().contains("sim")
        || e.getBootsList().stream().anyMatch(b -> b.getTelemetry().getHypervisor().equals("sim"));
  }

  /** Rows shown in a table: more than one arm is compared with the baseline. */
  static boolean multiArm(Experiment e) {
    return candidates(e).size() > 1 || !ceiling(e).isEmpty();
  }

  static Set<String> hosts(Experiment e) {
    Set<String> s = new TreeSet<>();
    e.getBootsList().forEach(b -> s.add(b.getHostId()));
    return s;
  }

  static Set<String> accelerators(Experiment e) {
    Set<String> s = new TreeSet<>();
    for (Boot b : e.getBootsList()) {
      if (!b.getTelemetry().getAccelerator().isEmpty()) {
        s.add(b.getTelemetry().getHypervisor() + "/" + b.getTelemetry().getAccelerator());
      }
    }
    return s;
  }

  /** True when the comparisons are per host class (with pooled rows). */
  static boolean byClass(Experiment e) {
    return e.getComparisonsList().stream().anyMatch(c -> !c.getHostClass().isEmpty());
  }

  /** Host class -> pairs that ran in it, from the boots. */
  static java.util.Map<String, Integer> classPairs(Experiment e) {
    java.util.Map<String, Set<Integer>> pairs = new java.util.TreeMap<>();
    for (Boot b : e.getBootsList()) {
      if (!b.getHostClass().isEmpty()) {
        pairs.computeIfAbsent(b.getHostClass(), k -> new TreeSet<>()).add(b.getPairIndex());
      }
    }
    java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
    pairs.forEach((k, v) -> counts.put(k, v.size()));
    return counts;
  }

  /** "sim/sim cpu=a (8 pairs), sim/sim cpu=b (8 pairs)". */
  static String classesLine(Experiment e) {
    return classPairs(e).entrySet().stream()
        .map(en -> en.getKey() + " (" + en.getValue() + (en.getValue() == 1 ? " pair)" : " pairs)"))
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /** Pooled rows whose host classes reached different verdicts. */
  static boolean classHeterogeneity(Experiment e) {
    return e.getComparisonsList().stream().anyMatch(c -> c.getHostClass().isEmpty()
        && c.getReasonsList().contains("class_heterogeneity"));
  }

  /** A row's class as shown: the class, "pooled" for a pooled row, empty without classes. */
  static String classLabel(Experiment e, Comparison c) {
    return !byClass(e) ? "" : c.getHostClass().isEmpty() ? "pooled" : c.getHostClass();
  }

  /**
   * regressed if any gating metric regressed; else improved if any gating metric improved;
   * no_change if every gating metric held; else inconclusive. With host classes the class rows
   * decide (a regression on one class is a regression); pooled rows only summarise them.
   */
  static String overall(Experiment e) {
    boolean byClass = byClass(e);
    List<Comparison> gating = e.getComparisonsList().stream().filter(Comparison::getGating)
        .filter(c -> !byClass || !c.getHostClass().isEmpty()).toList();
    if (gating.isEmpty()) {
      return "inconclusive";
    }
    if (gating.stream().anyMatch(c -> c.getVerdict().equals("regressed"))) return "regressed";
    if (gating.stream().anyMatch(c -> c.getVerdict().equals("improved"))) {
      return gating.stream().allMatch(c -> c.getVerdict().equals("improved") || c.getVerdict().equals("no_change"))
          ? "improved" : "inconclusive";
    }
    if (gating.stream().allMatch(c -> c.getVerdict().equals("no_change"))) return "no_change";
    return "inconclusive";
  }

  /** A sequential experiment that completed before its last look. */
  static boolean stoppedEarly(Experiment e) {
    return e.getState().equals("completed") && e.getPairsDone() < e.getPairsWanted();
  }

  /** "8 pairs", or "10 pairs (sequential, looks 10/20/30: stopped at look 1)". */
  static String pairsLine(Experiment e) {
    List<Integer> looks = e.getSpec().getPolicy().getLooksList();
    String pairs = e.getPairsDone() + " pairs";
    if (looks.isEmpty()) {
      return pairs;
    }
    String plan = "sequential, looks " + looks.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining("/"));
    int look = looks.indexOf(e.getPairsDone());
    if (stoppedEarly(e) && look >= 0) {
      return pairs + " (" + plan + ": stopped at look " + (look + 1) + ")";
    }
    return pairs + " (" + plan + ")";
  }

  static boolean anyGatingRegression(Experiment e) {
    return e.getComparisonsList().stream()
        .anyMatch(c -> c.getGating() && c.getVerdict().equals("regressed"));
  }

  static String failedBoots(Experiment e) {
    long failed = e.getBootsList().stream().filter(b -> !b.getStatus().equals("ok")).count();
    return failed == 0 ? "" : String.format(Locale.ROOT, "%d of %d boots failed", failed, e.getBootsCount());
  }

  /** Experiment-level verdict line. */
  static String verdictLine(Experiment e) {
    String family = byClass(e)
        ? "every gating metric must improve or hold on every host class; alpha "
            + e.getSpec().getPolicy().getAlpha() + " family-wise with Holm over metrics x host classes,"
            + " pooled verdict only when the classes agree"
        : "every gating metric must improve or hold; alpha " + e.getSpec().getPolicy().getAlpha()
            + " family-wise with Holm";
    return "verdict: " + overall(e) + " (" + family + ", joint intervals over gating "
        + (byClass(e) ? "rows" : "metrics") + ", noise threshold "
        + Numbers.percent(e.getSpec().getPolicy().getNoiseThreshold()).replace("+", "±") + ")";
  }
}
