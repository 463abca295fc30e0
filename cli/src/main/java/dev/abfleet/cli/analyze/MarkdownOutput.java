package dev.abfleet.cli.analyze;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A table per experiment, ready to paste into a pull request comment. */
final class MarkdownOutput {
  private MarkdownOutput() {}

  static String render(List<ExperimentResult> results) {
    StringBuilder out = new StringBuilder();
    for (ExperimentResult r : results) {
      if (out.length() > 0) {
        out.append('\n');
      }
      render(r, out);
    }
    return out.toString();
  }

  private static void render(ExperimentResult r, StringBuilder out) {
    boolean multi = r.candidates().size() > 1;
    out.append("### ").append(escape(r.experiment())).append(": `").append(r.baseline())
        .append("` vs `").append(String.join("`, `", r.candidates())).append("` (")
        .append(r.paired() ? r.pairs() + " pairs" : "unpaired").append(")\n\n");
    out.append("| metric | unit | n | ").append(escape(r.baseline())).append(" | ")
        .append(escape(multi ? "candidate" : r.candidates().get(0)))
        .append(" | change | CI | p | verdict |\n");
    out.append("|---|---|--:|--:|--:|--:|---|--:|---|\n");
    for (int k = 0; k < r.comparisons().size(); k++) {
      Comparison c = r.comparisons().get(k);
      String verdict = Format.verdict(c);
      if (c.decisive()) {
        verdict = "**" + verdict + "**";
      }
      out.append("| ").append(escape((multi ? r.arms().get(k) + "/" : "") + c.metric()
              + Format.classSuffix(r, c)))
          .append(" | ").append(escape(String.valueOf(c.unit()))).append(" | ")
          .append(Format.n(c)).append(" | ").append(Format.value(c.baselineCenter()))
          .append(" | ").append(Format.value(c.candidateCenter())).append(" | ")
          .append(Format.percent(c.change())).append(" | ")
          .append(Format.interval(c.ciLow(), c.ciHigh())).append(" | ")
          .append(Format.p(c.pValue())).append(" | ").append(verdict).append(" |\n");
    }
    out.append('\n').append(Format.policyLine(r).replaceFirst("^overall: (\\w+)",
        "**overall: $1**")).append('\n');
    for (Map.Entry<String, BootFailureComparison> e : r.bootFailures().entrySet()) {
      BootFailureComparison b = e.getValue();
      if (b.baselineFailed() + b.candidateFailed() > 0) {
        out.append(String.format(Locale.ROOT,
            "%nBoot failures: `%s` %d of %d, `%s` %d of %d (Fisher p=%s): %s%n", r.baseline(),
            b.baselineFailed(), b.baselineBoots(), e.getKey(), b.candidateFailed(),
            b.candidateBoots(), Format.p(b.pValue()), b.verdict().wire()));
      }
    }
    List<String> warnings = new java.util.ArrayList<>();
    for (int k = 0; k < r.comparisons().size(); k++) {
      Comparison c = r.comparisons().get(k);
      for (String w : c.warnings()) {
        warnings.add("- " + escape((multi ? r.arms().get(k) + "/" : "") + c.metric()
            + Format.classSuffix(r, c)) + ": "
            + escape(w));
      }
    }
    if (!warnings.isEmpty()) {
      out.append("\n<details><summary>").append(warnings.size()).append(" warnings</summary>\n\n")
          .append(String.join("\n", warnings)).append("\n\n</details>\n");
    }
  }

  private static String escape(String s) {
    return s.replace("|", "\\|");
  }
}
