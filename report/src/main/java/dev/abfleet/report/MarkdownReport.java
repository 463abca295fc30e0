package dev.abfleet.report;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.verdict.Assessment;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A table ready to paste into a pull request comment. */
public final class MarkdownReport {
  private MarkdownReport() {}

  /** Several experiments, one after the other. */
  public static String render(List<Report> reports) {
    return Report.joined(reports, MarkdownReport::render);
  }

  public static String render(Report r) {
    Design d = r.design();
    Assessment a = r.assessment();
    StringBuilder out = new StringBuilder();
    out.append("### abfleet: `").append(d.baseline()).append("` vs `")
        .append(String.join("`, `", d.candidates())).append("`")
        .append(d.ceiling().isEmpty() ? "" : " (ceiling `" + d.ceiling() + "`)")
        .append(" — **").append(a.overallLabel()).append("**\n\n");
    if (r.simulation()) {
      out.append("> **").append(Report.SIMULATION).append("**\n\n");
    }
    out.append(facts(r)).append("\n\n");
    builds(r, out);
    if (a.byClass()) {
      out.append("Host classes: ").append(r.classesLine()).append(".");
      if (a.classHeterogeneity()) {
        out.append(" ⚠️ The host classes disagree: no pooled verdict where they do.");
      }
      out.append("\n\n");
    }
    if (!a.rows().isEmpty()) {
      table(r, out);
      out.append('\n');
    }
    out.append(r.verdictLine()).append("\n\n").append(r.gateLine()).append('\n');
    bootFailures(r, out);
    ConsoleSummary.lines(r).forEach(line -> out.append('\n').append(line).append('\n'));
    HostSummary.lines(r).forEach(line -> out.append('\n').append(line).append('\n'));
    HostFactChange.lines(r).forEach(line -> out.append('\n').append(line).append('\n'));
    telemetry(r, out);
    ratios(r, out);
    warnings(r, out);
    return out.toString();
  }

  /** "16 back-to-back boot pairs on linux-1, mac-1 (qemu/kvm, vz/vz), experiment `e`, seed 42." */
  private static String facts(Report r) {
    if (r.run() == null) {
      return "Experiment `" + escape(r.design().experiment()) + "`, "
          + r.pairsLine().replaceFirst(" pairs?", "$0 of boots") + ".";
    }
    return r.pairsLine().replaceFirst(" pairs?", " back-to-back boot$0") + " on "
        + String.join(", ", r.hosts()) + " (" + String.join(", ", r.accelerators())
        + "), experiment `" + r.design().experiment() + "`, seed " + r.run().seed() + ".";
  }

  /** A list item per arm abfleet built: "- `stock`: build 3f2a9c1d (...)". */
  private static void builds(Report r, StringBuilder out) {
    if (r.builds().isEmpty()) {
      return;
    }
    r.builds().forEach((arm, b) -> out.append("- `").append(arm).append("`: ")
        .append(escape(b.describe())).append('\n'));
    out.append('\n');
  }

  private static void table(Report r, StringBuilder out) {
    Assessment a = r.assessment();
    List<String> header = new ArrayList<>(List.of("metric", "baseline", "candidate", "change",
        r.intervalHeader(), "p (adj.)", "verdict"));
    List<String> align = new ArrayList<>(List.of("---", "---:", "---:", "---:", "---", "---:",
        "---"));
    if (!a.paired()) {
      header.add(1, "n");
      align.add(1, "--:");
    }
    if (a.byClass()) {
      header.add(1, "host class");
      align.add(1, "---");
    }
    out.append("| ").append(String.join(" | ", header)).append(" |\n");
    out.append("|").append(String.join("|", align)).append("|\n");
    for (Row row : a.rows()) {
      Comparison c = row.comparison();
      List<String> cells = new ArrayList<>();
      cells.add(escape(r.rowName(row)) + (c.gating() ? "" : " (not gating)")
          + (row.ofCeiling() > 0 ? " (" + Numbers.ofCeiling(row.ofCeiling()) + " of ceiling)" : ""));
      if (a.byClass()) {
        cells.add(escape(r.classLabel(row)));
      }
      if (!a.paired()) {
        cells.add(c.nBaseline() + "+" + c.nCandidate());
      }
      cells.add(Numbers.withUnit(c.baselineCenter(), escape(c.unit())));
      cells.add(Numbers.withUnit(c.candidateCenter(), escape(c.unit())));
      cells.add(Numbers.percent(c.change()));
      cells.add(Numbers.interval(c.ciLow(), c.ciHigh()));
      cells.add(Numbers.p(c.pAdjusted()));
      cells.add(verdict(c));
      out.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
  }

  private static String verdict(Comparison c) {
    String v = switch (c.verdict()) {
      case IMPROVED -> "✅ improved";
      case REGRESSED -> "❌ regressed";
      case NO_CHANGE -> "➖ no change";
      case HOLDS -> "☑️ holds";
      case INCONCLUSIVE -> "❔ inconclusive";
    };
    return c.reasons().isEmpty() ? v : v + " (" + String.join(", ", c.reasons()) + ")";
  }

  private static void bootFailures(Report r, StringBuilder out) {
    for (Map.Entry<String, BootFailureComparison> e : r.assessment().bootFailures().entrySet()) {
      BootFailureComparison b = e.getValue();
      if (b.baselineFailed() + b.candidateFailed() > 0) {
        out.append("\nBoot failures: ").append(r.bootFailuresLine(e.getKey(), b)).append(": ")
            .append(b.verdict() == dev.abfleet.stats.Verdict.REGRESSED ? "**regressed**"
                : b.verdict().wire()).append('\n');
      }
    }
  }

  /** Guest counters whose rate per unit of work moved most: explains, never gates. */
  private static void telemetry(Report r, StringBuilder out) {
    List<TelemetryChanges.Row> rows = TelemetryChanges.of(r);
    if (rows.isEmpty()) {
      return;
    }
    out.append("\nGuest counters per unit of work (never gating; paired median change with its"
        + " 95% sign-test interval):\n\n");
    out.append("| metric | counter | baseline | candidate | change | interval | pairs |\n");
    out.append("|---|---|---:|---:|---:|---|---:|\n");
    for (TelemetryChanges.Row t : rows) {
      out.append("| ").append(r.multiArm() ? t.arm() + "/" : "").append(t.metric())
          .append(" | ").append(t.label())
          .append(" | ").append(Numbers.value(t.baselineRate()))
          .append(" | ").append(Numbers.value(t.candidateRate()))
          .append(" | ").append(Numbers.signed(t.change()))
          .append(" | ").append(Numbers.signedInterval(t.low(), t.high()))
          .append(" | ").append(t.pairs()).append(" |\n");
    }
  }

  /** Ratios of two guest counters per boot: explain, never gate. */
  private static void ratios(Report r, StringBuilder out) {
    List<CounterRatios.Row> rows = CounterRatios.of(r);
    if (rows.isEmpty()) {
      return;
    }
    out.append("\nCounter ratios per boot (never gating; paired median change with its 95%"
        + " sign-test interval):\n\n");
    out.append("| metric | ratio | num / den | baseline | candidate | change | interval | pairs |\n");
    out.append("|---|---|---|---:|---:|---:|---|---:|\n");
    for (CounterRatios.Row t : rows) {
      out.append("| ").append(r.multiArm() ? t.arm() + "/" : "").append(t.metric())
          .append(" | ").append(t.name())
          .append(" | `").append(escape(t.definition())).append('`')
          .append(" | ").append(Numbers.value(t.baseline()))
          .append(" | ").append(Numbers.value(t.candidate()))
          .append(" | ").append(Numbers.signed(t.change()))
          .append(" | ").append(Numbers.signedInterval(t.low(), t.high()))
          .append(" | ").append(t.pairs()).append(" |\n");
    }
  }

  private static void warnings(Report r, StringBuilder out) {
    List<String> warnings = new ArrayList<>();
    for (Row row : r.assessment().rows()) {
      String cls = row.comparison().hostClass().isEmpty() ? "" : " [" + row.comparison().hostClass() + "]";
      for (String w : row.comparison().warnings()) {
        warnings.add("- " + escape(r.rowName(row) + cls) + ": " + escape(w));
      }
    }
    if (!warnings.isEmpty()) {
      out.append("\n<details><summary>").append(warnings.size())
          .append(warnings.size() == 1 ? " warning" : " warnings").append("</summary>\n\n")
          .append(String.join("\n", warnings)).append("\n\n</details>\n");
    }
    if (r.run() != null && !r.run().message().isEmpty()) {
      out.append('\n').append(r.run().state()).append(": ").append(escape(r.run().message()))
          .append('\n');
    }
  }

  private static String escape(String s) {
    return s.replace("|", "\\|");
  }
}
