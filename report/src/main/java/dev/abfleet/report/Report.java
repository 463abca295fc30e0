package dev.abfleet.report;

import dev.abfleet.model.ArmBuild;
import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.verdict.Assessment;

import dev.abfleet.stats.Adjustment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One experiment's report, the single input of every renderer ({@link TextReport},
 * {@link MarkdownReport}, {@link JsonReport}, {@link HtmlReport}).
 *
 * @param run the fleet's facts; null for boots recorded elsewhere ({@code abfleet analyze})
 */
public record Report(Design design, Assessment assessment, Run run) {

  /** What a report of simulated boots says first, in every format. */
  public static final String SIMULATION = "SIMULATION: hypervisor sim, every figure comes from a"
      + " performance model; no kernel was booted";

  /** Each report rendered, one after the other, a blank line apart. */
  static String joined(List<Report> reports, java.util.function.Function<Report, String> render) {
    StringBuilder out = new StringBuilder();
    for (Report r : reports) {
      if (out.length() > 0) {
        out.append('\n');
      }
      out.append(render.apply(r));
    }
    return out.toString();
  }

  public boolean simulation() {
    return run != null && run.simulation();
  }

  /**
   * The run is still going: its verdicts are interim (of the pairs done so far) and may change
   * at the next look.
   */
  public boolean interim() {
    return run != null && run.state().equals("running");
  }

  /** Several arms are compared with the baseline: rows name their arm. */
  public boolean multiArm() {
    return design.compared().size() > 1;
  }

  /** Pairs reported: completed pairs of a fleet run, else the pairs used. */
  public int pairs() {
    return run != null ? run.pairsDone() : assessment.pairs();
  }

  /** Hosts that booted the listed boots, sorted; empty without fleet facts. */
  public Set<String> hosts() {
    Set<String> s = new TreeSet<>();
    if (run != null) {
      run.boots().forEach(b -> s.add(b.host()));
    }
    return s;
  }

  /** Arms abfleet built, by name: the baseline first, then as compared; empty without fleet facts. */
  public Map<String, ArmBuild> builds() {
    Map<String, ArmBuild> out = new LinkedHashMap<>();
    if (run == null) {
      return out;
    }
    List<String> arms = new ArrayList<>();
    arms.add(design.baseline());
    arms.addAll(design.compared());
    for (String arm : arms) {
      ArmBuild b = run.builds().get(arm);
      if (b != null) {
        out.put(arm, b);
      }
    }
    run.builds().forEach(out::putIfAbsent);
    return out;
  }

  /** "stock: build 3f2a9c1d (linux-source-6.1.tar.xz + 0 patches, ...)", one per built arm. */
  public List<String> buildLines() {
    return builds().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue().describe())
        .toList();
  }

  /** "hypervisor/accelerator" of the listed boots that reported one, sorted. */
  public Set<String> accelerators() {
    Set<String> s = new TreeSet<>();
    if (run != null) {
      for (BootRecord b : run.boots()) {
        if (!b.accelerator().isEmpty() && b.run() != null) {
          s.add(b.run().hypervisor() + "/" + b.accelerator());
        }
      }
    }
    return s;
  }

  /** "8 pairs", "unpaired", or "10 pairs (sequential, looks 10/20/30: stopped at look 1)". */
  public String pairsLine() {
    if (run == null && !assessment.paired()) {
      return "unpaired";
    }
    int pairs = pairs();
    String line = pairs + (pairs == 1 ? " pair" : " pairs");
    List<Integer> looks = design.policy().looks();
    if (looks.isEmpty()) {
      return line;
    }
    String plan = "sequential, looks " + String.join("/", looks.stream().map(String::valueOf).toList());
    int look = looks.indexOf(pairs);
    if (run != null && run.stoppedEarly() && look >= 0) {
      return line + " (" + plan + ": stopped at look " + (look + 1) + ")";
    }
    return line + " (" + plan + ")";
  }

  /** "sim/sim cpu=a (8 pairs), sim/sim cpu=b (8 pairs)". */
  public String classesLine() {
    return String.join(", ", assessment.classPairs().entrySet().stream()
        .map(e -> e.getKey() + " (" + e.getValue() + (e.getValue() == 1 ? " pair)" : " pairs)"))
        .toList());
  }

  /** The experiment-level verdict and the rule behind it. */
  public String verdictLine() {
    double alpha = design.policy().alpha();
    boolean maxT = assessment.rows().stream()
        .anyMatch(r -> r.comparison().adjustment() == Adjustment.MAXT);
    String family = assessment.byClass()
        ? "every gating metric must improve or hold on every host class; alpha " + alpha
            + " family-wise with Holm over metrics x host classes, pooled verdict only when the"
            + " classes agree"
        : maxT
            ? "every gating metric must improve or hold; alpha " + alpha + " family-wise by maxT"
                + " over joint sign flips of whole pairs"
            : "every gating metric must improve or hold; alpha " + alpha + " family-wise with Holm";
    return "verdict: " + assessment.overallLabel() + " (" + family + ", joint intervals over gating "
        + (assessment.byClass() ? "rows" : "metrics") + ", noise threshold "
        + Numbers.percent(design.policy().noiseThreshold()).replace("+", "±") + ")";
  }

  /**
   * "gate: pass (metadata_stat improved, seq_read holds)": the gate and the rows behind it; the
   * gate fails only on a regression, and holds means the interval's worse end is within the
   * noise threshold (one-sided at half the interval's alpha).
   */
  public String gateLine() {
    return "gate: " + assessment.gateLabel();
  }

  /** "stock 0 of 8 boots failed (0%), bad 4 of 8 (50%), Fisher one-sided p=0.038". */
  String bootFailuresLine(String arm, dev.abfleet.stats.BootFailureComparison b) {
    return String.format(java.util.Locale.ROOT, "%s %d of %d boots failed (%s), %s %d of %d (%s),"
        + " Fisher one-sided p=%s", design.baseline(), b.baselineFailed(), b.baselineBoots(),
        rate(b.baselineFailed(), b.baselineBoots()), arm, b.candidateFailed(), b.candidateBoots(),
        rate(b.candidateFailed(), b.candidateBoots()), Numbers.p(b.pValue()));
  }

  private static String rate(int failed, int boots) {
    return boots == 0 ? "-" : Math.round(100.0 * failed / boots) + "%";
  }

  /** The header of the interval column: "CI (95% joint)". */
  public String intervalHeader() {
    return "CI (" + Numbers.level(1 - design.policy().alpha()) + " joint)";
  }

  /** A row's class as shown: the class, "pooled" for a pooled row, empty without classes. */
  public String classLabel(Row r) {
    return !assessment.byClass() ? "" : r.comparison().hostClass().isEmpty() ? "pooled"
        : r.comparison().hostClass();
  }

  /** "metadata_stat", or "arm/metadata_stat" when several arms are compared. */
  public String rowName(Row r) {
    return (multiArm() ? r.arm() + "/" : "") + r.comparison().metric();
  }
}
