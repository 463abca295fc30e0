package dev.abfleet.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The boot pairs guest counters are compared over, shared by {@link TelemetryChanges} and
 * {@link CounterRatios} so that both read the same pairs: per (host, pair) the baseline's and the
 * compared arm's completed, measured boot (warm-up boots and failed boots never count).
 */
final class CounterPairs {
  /** The reschedule IPI row on x86 ("RES") and on arm64 ("IPI0"), in that order of preference. */
  static final List<String> RESCHEDULE_ROWS = List.of("RES", "IPI0");

  private CounterPairs() {}

  /**
   * Baseline and {@code arm} boot (index 0 and 1) of each (host, pair) where both ran, by pair
   * then host; empty without fleet facts.
   */
  static List<BootRecord[]> of(Report r, String arm) {
    if (r.run() == null) {
      return List.of();
    }
    List<BootRecord> boots = r.run().boots().stream()
        .filter(b -> !b.warmupBoot() && !b.rerun() && !b.failed() && b.run() != null).toList();
    String baseline = r.design().baseline();
    Map<String, BootRecord> other = new LinkedHashMap<>();
    boots.stream().filter(b -> b.arm().equals(arm))
        .forEach(b -> other.putIfAbsent(b.host() + "\u0000" + b.pair(), b));
    List<BootRecord[]> out = new ArrayList<>();
    for (BootRecord b : boots) {
      BootRecord o = b.arm().equals(baseline) ? other.get(b.host() + "\u0000" + b.pair()) : null;
      if (o != null) {
        out.add(new BootRecord[] {b, o});
      }
    }
    out.sort(Comparator.<BootRecord[], Integer>comparing(p -> p[0].pair() == null ? 0 : p[0].pair())
        .thenComparing(p -> String.valueOf(p[0].host())));
    return out;
  }

  /** Metrics the baseline boots of these pairs counted, in order of first appearance. */
  static Set<String> metrics(List<BootRecord[]> pairs) {
    Set<String> metrics = new LinkedHashSet<>();
    pairs.forEach(p -> p[0].run().counters().forEach(c -> metrics.add(c.metric())));
    return metrics;
  }

  /**
   * The reschedule IPI row of {@code metric} in these pairs' counters ("RES", else "IPI0"), or
   * null when no boot counted one (rows that did not move are absent).
   */
  static String rescheduleRow(List<BootRecord[]> pairs, String metric) {
    for (String row : RESCHEDULE_ROWS) {
      for (BootRecord[] p : pairs) {
        for (BootRecord b : p) {
          MetricCounters c = b.run().counters(metric);
          if (c != null && c.interrupts().containsKey(row)) {
            return row;
          }
        }
      }
    }
    return null;
  }
}
