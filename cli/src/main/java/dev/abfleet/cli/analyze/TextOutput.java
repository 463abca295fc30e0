package dev.abfleet.cli.analyze;

import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A compact table per experiment, read at a glance (benchstat-like). */
final class TextOutput {
  private TextOutput() {}

  static String render(List<ExperimentResult> results) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < results.size(); i++) {
      if (i > 0) {
        out.append('\n');
      }
      render(results.get(i), out);
    }
    return out.toString();
  }

  private static void render(ExperimentResult r, StringBuilder out) {
    boolean multi = r.candidates().size() > 1;
    out.append("experiment ").append(r.experiment()).append(": ").append(r.baseline())
        .append(" (baseline) vs ").append(String.join(", ", r.candidates()))
        .append(r.paired() ? ", " + r.pairs() + " pairs" : ", unpaired").append('\n');
    boolean byClass = r.comparisons().stream().anyMatch(c -> !c.hostClass().isEmpty());
    List<String[]> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("metric", "unit", "n", r.baseline(),
        multi ? "candidate" : r.candidates().get(0), "change", "CI", "p", "verdict"));
    if (byClass) {
      header.add(1, "host class");
    }
    rows.add(header.toArray(String[]::new));
    for (int k = 0; k < r.comparisons().size(); k++) {
      Comparison c = r.comparisons().get(k);
      List<String> row = new ArrayList<>(List.of((multi ? r.arms().get(k) + "/" : "") + c.metric(),
          String.valueOf(c.unit()), Format.n(c), Format.value(c.baselineCenter()),
          Format.value(c.candidateCenter()), Format.percent(c.change()),
          Format.interval(c.ciLow(), c.ciHigh()), Format.p(c.pValue()), Format.verdict(c)));
      if (byClass) {
        row.add(1, c.hostClass().isEmpty() ? "pooled" : c.hostClass());
      }
      rows.add(row.toArray(String[]::new));
    }
    out.append(Format.table(rows)).append(Format.policyLine(r)).append('\n');
    for (Map.Entry<String, BootFailureComparison> e : r.bootFailures().entrySet()) {
      BootFailureComparison b = e.getValue();
      if (b.baselineFailed() + b.candidateFailed() > 0) {
        out.append(String.format(Locale.ROOT,
            "boot failures: %s %d of %d, %s %d of %d (Fisher p=%s): %s%n", r.baseline(),
            b.baselineFailed(), b.baselineBoots(), e.getKey(), b.candidateFailed(),
            b.candidateBoots(), Format.p(b.pValue()), b.verdict().wire()));
      }
    }
    for (int k = 0; k < r.comparisons().size(); k++) {
      Comparison c = r.comparisons().get(k);
      for (String w : c.warnings()) {
        out.append("warning: ").append(multi ? r.arms().get(k) + "/" : "").append(c.metric())
            .append(c.hostClass().isEmpty() ? "" : " [" + c.hostClass() + "]")
            .append(": ").append(w).append('\n');
      }
    }
  }
}
