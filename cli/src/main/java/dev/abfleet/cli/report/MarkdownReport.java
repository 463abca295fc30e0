package dev.abfleet.cli.report;

import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;

/** A table ready to paste into a pull request comment. */
public final class MarkdownReport {
  private MarkdownReport() {}

  public static String render(Experiment e) {
    StringBuilder out = new StringBuilder();
    out.append("### abfleet: `").append(Reports.baseline(e)).append("` vs `")
        .append(String.join("`, `", Reports.candidates(e))).append("` — **")
        .append(Reports.overall(e)).append("**\n\n");
    if (Reports.simulation(e)) {
      out.append("> **").append(Reports.SIMULATION).append("**\n\n");
    }
    out.append(Reports.pairsLine(e).replaceFirst(" pairs", " back-to-back boot pairs")).append(" on ")
        .append(String.join(", ", Reports.hosts(e))).append(" (")
        .append(String.join(", ", Reports.accelerators(e))).append("), experiment `")
        .append(e.getExperimentId()).append("`, seed ").append(e.getSeed()).append(".\n\n");
    boolean byClass = Reports.byClass(e);
    if (byClass) {
      out.append("Host classes: ").append(Reports.classesLine(e)).append(".");
      if (Reports.classHeterogeneity(e)) {
        out.append(" ⚠️ The host classes disagree: no pooled verdict where they do.");
      }
      out.append("\n\n");
      out.append("| metric | host class | baseline | candidate | change | CI (95% joint) | p (Holm) | verdict |\n");
      out.append("|---|---|---:|---:|---:|---|---:|---|\n");
    } else {
      out.append("| metric | baseline | candidate | change | CI (95% joint) | p (Holm) | verdict |\n");
      out.append("|---|---:|---:|---:|---|---:|---|\n");
    }
    boolean multi = Reports.multiArm(e);
    for (Comparison c : e.getComparisonsList()) {
      String verdict = switch (c.getVerdict()) {
        case "improved" -> "✅ improved";
        case "regressed" -> "❌ regressed";
        case "no_change" -> "➖ no change";
        default -> "❔ inconclusive";
      };
      if (c.getReasonsCount() > 0) {
        verdict += " (" + String.join(", ", c.getReasonsList()) + ")";
      }
      out.append("| ").append(multi ? c.getArm() + "/" : "").append(c.getMetric())
          .append(c.getGating() ? "" : " (not gating)")
          .append(c.getOfCeiling() > 0 ? " (" + Numbers.ofCeiling(c.getOfCeiling()) + " of ceiling)" : "")
          .append(byClass ? " | " + Reports.classLabel(e, c) : "")
          .append(" | ").append(Numbers.withUnit(c.getBaselineCenter(), c.getUnit()))
          .append(" | ").append(Numbers.withUnit(c.getCandidateCenter(), c.getUnit()))
          .append(" | ").append(Numbers.percent(c.getChange()))
          .append(" | ").append(Numbers.interval(c.getCiLow(), c.getCiHigh()))
          .append(" | ").append(Numbers.p(c.getPAdjusted()))
          .append(" | ").append(verdict).append(" |\n");
    }
    out.append('\n').append(Reports.verdictLine(e)).append('\n');
    String failed = Reports.failedBoots(e);
    if (!failed.isEmpty()) {
      out.append('\n').append(failed).append('\n');
    }
    return out.toString();
  }
}
