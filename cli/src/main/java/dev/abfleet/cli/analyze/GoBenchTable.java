package dev.abfleet.cli.analyze;

import dev.abfleet.cli.analyze.GoBenchSummaries.Geomean;
import dev.abfleet.cli.analyze.GoBenchSummaries.Summary;
import dev.abfleet.cli.analyze.samples.Sample;
import dev.abfleet.report.Numbers;
import dev.abfleet.report.Report;
import dev.abfleet.stats.Adjustment;
import dev.abfleet.stats.Comparison;
import dev.abfleet.stats.verdict.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The text table of {@code analyze} on Go benchmark files, laid out as benchstat's: per
 * compared file and unit, one row per benchmark with each file's median ± spread
 * ({@link GoBenchSummaries}), then the verdict engine's change, interval, p per row, adjusted
 * p and verdict for that row, and a geomean row. The verdicts are the report's, unchanged.
 */
public final class GoBenchTable {
  private GoBenchTable() {}

  private record Key(String arm, String benchmark, String unit) {}

  /**
   * @param config per file (arm) its configuration lines ({@code goos}, {@code pkg}, {@code cpu}),
   *     shown first: once when every file agrees, else per file
   */
  public static String render(Report r, List<Sample> samples, Map<String, Map<String, String>> config) {
    Map<Key, List<Double>> values = new LinkedHashMap<>();
    Map<String, Set<String>> benchmarksByUnit = new LinkedHashMap<>();
    Map<String, String> better = new LinkedHashMap<>();
    for (Sample s : samples) {
      if (s.failed()) {
        continue;
      }
      values.computeIfAbsent(new Key(s.arm(), s.metric(), s.unit()), k -> new ArrayList<>()).add(s.value());
      benchmarksByUnit.computeIfAbsent(s.unit(), u -> new LinkedHashSet<>()).add(s.metric());
      better.putIfAbsent(s.unit(), s.better());
    }
    Map<Key, Comparison> comparisons = new LinkedHashMap<>();
    for (Row row : r.assessment().rows()) {
      Comparison c = row.comparison();
      if (c.hostClass().isEmpty()) {
        comparisons.put(new Key(row.arm(), c.metric(), c.unit()), c);
      }
    }
    StringBuilder out = new StringBuilder();
    config(config, out);
    String baseline = r.design().baseline();
    String adjusted = adjustedHeader(comparisons.values());
    boolean tooFew = false;
    for (String candidate : r.design().candidates()) {
      out.append(baseline).append(" (baseline) vs ").append(candidate).append(", unpaired\n")
          .append(baseline).append(", ").append(candidate).append(": median ± spread of the file's")
          .append(" values; spread = the larger distance from the median to either end of its ")
          .append(Numbers.level(GoBenchSummaries.LEVEL)).append(" distribution-free interval")
          .append(" (6 to 8 values: to the min or max), as benchstat's ±\n")
          .append("n: values each test used; change: Hodges-Lehmann shift with its ")
          .append(r.intervalHeader()).append("; p: Mann-Whitney, per row; ").append(adjusted)
          .append(": ").append(adjusted.equals("p_holm") ? "Holm-adjusted" : "adjusted by maxT")
          .append(" across the ").append(gatingRows(comparisons.values())).append(" gating rows\n");
      for (Map.Entry<String, Set<String>> unit : benchmarksByUnit.entrySet()) {
        List<String> names = new ArrayList<>(unit.getValue());
        List<Summary> base = summaries(values, baseline, names, unit.getKey());
        List<Summary> cand = summaries(values, candidate, names, unit.getKey());
        List<String[]> table = new ArrayList<>();
        table.add(new String[] {"benchmark", baseline, candidate, "n", "change", r.intervalHeader(),
            "p", adjusted, "verdict"});
        for (int i = 0; i < names.size(); i++) {
          Comparison c = comparisons.get(new Key(candidate, names.get(i), unit.getKey()));
          table.add(row(names.get(i), base.get(i), cand.get(i), c));
          tooFew |= tooFew(base.get(i)) || tooFew(cand.get(i));
        }
        Geomean g = GoBenchSummaries.geomean(names, base, cand);
        table.add(new String[] {"geomean", centre(g.baseline()), centre(g.candidate()), "",
            Numbers.percent(g.change()), "", "", "", ""});
        out.append('\n').append(unit.getKey()).append(" (")
            .append("higher".equals(better.get(unit.getKey())) ? "higher" : "lower")
            .append(" is better)\n").append(Numbers.table(table));
        if (g.problem() != null) {
          out.append("geomean: ").append(g.problem()).append('\n');
        }
      }
      out.append('\n');
    }
    if (tooFew) {
      out.append("± ∞: fewer than 6 values, too few for a ")
          .append(Numbers.level(GoBenchSummaries.LEVEL)).append(" interval of the median\n");
    }
    out.append(r.verdictLine()).append('\n');
    out.append(r.gateLine()).append('\n');
    for (Map.Entry<Key, Comparison> e : comparisons.entrySet()) {
      for (String w : e.getValue().warnings()) {
        out.append("warning: ").append(r.multiArm() ? e.getKey().arm() + "/" : "")
            .append(e.getKey().benchmark()).append(' ').append(e.getKey().unit()).append(": ")
            .append(w).append('\n');
      }
    }
    return out.toString();
  }

  /** "goos: linux"; "cpu: old Xeon E5, new EPYC 7B13" when the files differ ("-" = not given). */
  private static void config(Map<String, Map<String, String>> config, StringBuilder out) {
    Set<String> keys = new LinkedHashSet<>();
    config.values().forEach(c -> keys.addAll(c.keySet()));
    for (String key : keys) {
      Set<String> seen = new LinkedHashSet<>();
      config.values().forEach(c -> seen.add(c.getOrDefault(key, "-")));
      out.append(key).append(": ");
      if (seen.size() == 1) {
        out.append(seen.iterator().next());
      } else {
        out.append(String.join(", ", config.entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue().getOrDefault(key, "-")).toList()));
      }
      out.append('\n');
    }
  }

  private static List<Summary> summaries(Map<Key, List<Double>> values, String arm,
      List<String> names, String unit) {
    List<Summary> out = new ArrayList<>();
    for (String name : names) {
      List<Double> v = values.get(new Key(arm, name, unit));
      out.add(v == null ? null : GoBenchSummaries.of(v.stream().mapToDouble(Double::doubleValue).toArray()));
    }
    return out;
  }

  private static String[] row(String name, Summary base, Summary cand, Comparison c) {
    boolean judged = c != null;
    return new String[] {name, summary(base), summary(cand),
        judged ? c.nBaseline() + "+" + c.nCandidate() : "-",
        judged ? Numbers.percent(c.change()) : "-",
        judged ? Numbers.interval(c.ciLow(), c.ciHigh()) : "-",
        judged ? Numbers.p(c.pValue()) : "-",
        judged ? Numbers.p(c.pAdjusted()) : "-",
        judged ? c.verdict().wire() + (c.reasons().isEmpty() ? "" : " (" + String.join(", ", c.reasons()) + ")")
            : "-"};
  }

  private static boolean tooFew(Summary s) {
    return s != null && s.n() > 0 && Double.isNaN(s.low());
  }

  /** "1.235k ± 1.7%"; "1.235k ± ∞" without an interval; "-" when not measured. */
  static String summary(Summary s) {
    if (s == null || s.n() == 0) {
      return "-";
    }
    return centre(s.centre()) + " ± " + (Double.isNaN(s.spread()) ? "∞"
        : String.format(Locale.ROOT, "%.1f%%", 100 * s.spread()));
  }

  /**
   * Four significant digits, as benchstat shows a centre, with k, M or G above 1000: 1234.5 ->
   * "1.235k", 512.3 -> "512.3", 0 -> "0"; NaN -> "-".
   */
  static String centre(double v) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    if (v == 0) {
      return "0";
    }
    String[] prefixes = {"", "k", "M", "G", "T"};
    int p = 0;
    double x = v;
    while (Math.abs(x) >= 999.95 && p < prefixes.length - 1) {
      x /= 1000;
      p++;
    }
    if (Math.abs(x) < 1) {
      return String.format(Locale.ROOT, "%.4g", x) + prefixes[p];
    }
    int digits = Math.abs(x) >= 99.995 ? 1 : Math.abs(x) >= 9.9995 ? 2 : 3;
    return String.format(Locale.ROOT, "%." + digits + "f", x) + prefixes[p];
  }

  /** "p_holm", or "p_maxT" when the engine decided the gating rows together by maxT. */
  private static String adjustedHeader(java.util.Collection<Comparison> rows) {
    boolean maxT = rows.stream().anyMatch(c -> c.adjustment() == Adjustment.MAXT);
    return maxT ? "p_maxT" : "p_holm";
  }

  private static long gatingRows(java.util.Collection<Comparison> rows) {
    return rows.stream().filter(Comparison::gating).count();
  }
}
