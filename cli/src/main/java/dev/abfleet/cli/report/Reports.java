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

  /**
   * regressed if any gating metric regressed; else improved if any gating metric improved;
   * no_change if every gating metric held; else inconclusive.
   */
  static String overall(Experiment e) {
    List<Comparison> gating = e.getComparisonsList().stream().filter(Comparison::getGating).toList();
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
    return "verdict: " + overall(e) + " (every gating metric must improve or hold; alpha "
        + e.getSpec().getPolicy().getAlpha() + " family-wise with Holm, joint intervals over gating metrics, noise threshold "
        + Numbers.percent(e.getSpec().getPolicy().getNoiseThreshold()).replace("+", "±") + ")";
  }
}
