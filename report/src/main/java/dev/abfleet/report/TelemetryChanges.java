package dev.abfleet.report;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.SignInterval;
import dev.abfleet.stats.Medians;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which guest counters moved between the arms, per unit of work: for every compared arm,
 * metric and counter row (an interrupt row, or "ctxt"), each completed pair gives the candidate's
 * count per unit of work minus the baseline's; the median of those differences comes with the
 * sign test's exact 95% interval ({@link SignInterval}). Rows are ranked by how far the median
 * difference moves the rate relative to the larger arm's median rate (in steps of 5%), then by
 * the size of the difference, and the first few per metric are kept, plus the reschedule IPI
 * row wherever it was counted. Telemetry never gates: it explains a verdict (e.g. reschedule IPIs
 * per operation falling with a spin-wait patch). Ratios of two counters: {@link CounterRatios}.
 */
public final class TelemetryChanges {
  /** Level of the intervals. */
  public static final double ALPHA = 0.05;
  /** Rows kept per arm and metric. */
  public static final int ROWS_PER_METRIC = 3;

  private TelemetryChanges() {}

  /**
   * One counter row of one metric.
   *
   * @param baselineRate median over pairs of the baseline's count per unit of work
   * @param candidateRate the same for the compared arm
   * @param change paired median of (candidate - baseline) rate; low/high its interval (NaN
   *     when too few pairs)
   */
  public record Row(String arm, String metric, String row, String workUnit, int pairs,
      double baselineRate, double candidateRate, double change, double low, double high) {

    /** "RES per op", "ctxt per MiB". */
    public String label() {
      String unit = workUnit.equals("ops") ? "op" : workUnit.isEmpty() ? "unit" : workUnit;
      return row + " per " + unit;
    }
  }

  /**
   * The rows of a report's boots; empty without fleet facts or counters. Per arm and metric, the
   * first {@link #ROWS_PER_METRIC} rows by change, then the reschedule IPI row ("RES", on arm64
   * "IPI0") when it was counted and is not among them: IPIs per op are the first thing asked of
   * a change in synchronous request paths.
   */
  public static List<Row> of(Report r) {
    List<Row> out = new ArrayList<>();
    for (String arm : r.design().compared()) {
      List<BootRecord[]> pairs = CounterPairs.of(r, arm);
      for (String metric : CounterPairs.metrics(pairs)) {
        List<Row> rows = new ArrayList<>();
        for (String row : rowNames(pairs, metric)) {
          Row change = change(arm, metric, row, pairs);
          if (change != null) {
            rows.add(change);
          }
        }
        // Rows within 5% of each other in relative shift rank by the size of the change: a
        // device whose interrupts per op vanish explains more than a timer that ticked less.
        rows.sort(Comparator.comparingLong((Row row) -> Math.round(relativeShift(row) * 20))
            .reversed()
            .thenComparing(Comparator.comparingDouble((Row row) -> Math.abs(row.change())).reversed())
            .thenComparing(Row::row));
        List<Row> top = rows.subList(0, Math.min(ROWS_PER_METRIC, rows.size()));
        out.addAll(top);
        String resched = CounterPairs.rescheduleRow(pairs, metric);
        if (top.stream().noneMatch(row -> row.row().equals(resched))) {
          rows.stream().filter(row -> row.row().equals(resched)).findFirst().ifPresent(out::add);
        }
      }
    }
    return out;
  }

  private static double relativeShift(Row row) {
    double scale = Math.max(Math.abs(row.baselineRate()), Math.abs(row.candidateRate()));
    return scale > 0 && Double.isFinite(row.change()) ? Math.abs(row.change()) / scale : 0;
  }

  private static Set<String> rowNames(List<BootRecord[]> pairs, String metric) {
    Set<String> rows = new TreeSet<>();
    for (BootRecord[] p : pairs) {
      for (BootRecord b : p) {
        MetricCounters c = b.run().counters(metric);
        if (c != null) {
          rows.addAll(c.rows().keySet());
        }
      }
    }
    return rows;
  }

  /** The row's change, or null when no pair has both arms' counters for the metric. */
  private static Row change(String arm, String metric, String row, List<BootRecord[]> pairs) {
    List<Double> base = new ArrayList<>();
    List<Double> cand = new ArrayList<>();
    String unit = "";
    for (BootRecord[] p : pairs) {
      MetricCounters a = p[0].run().counters(metric);
      MetricCounters c = p[1].run().counters(metric);
      if (a == null || c == null || a.work() <= 0 || c.work() <= 0) {
        continue;
      }
      // A row absent from one boot's counters did not move there: zero, not unknown. Context
      // switches absent means /proc/stat was unreadable: unknown.
      Long ra = a.rows().get(row);
      Long rc = c.rows().get(row);
      if (row.equals(MetricCounters.CONTEXT_SWITCHES) && (ra == null || rc == null)) {
        continue;
      }
      base.add((ra == null ? 0 : ra) / a.work());
      cand.add((rc == null ? 0 : rc) / c.work());
      unit = a.workUnit();
    }
    if (base.isEmpty()) {
      return null;
    }
    double[] d = new double[base.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = cand.get(i) - base.get(i);
    }
    SignInterval s = SignInterval.of(d, ALPHA);
    return new Row(arm, metric, row, unit, d.length, median(base), median(cand), s.median(),
        s.low(), s.high());
  }

  private static double median(List<Double> values) {
    return Medians.of(values.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
