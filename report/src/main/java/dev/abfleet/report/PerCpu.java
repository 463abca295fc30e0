package dev.abfleet.report;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Rows of per-CPU counts ("RES" -> [cpu0, cpu1, ...]), as the guest's telemetry gives them. */
public final class PerCpu {
  private PerCpu() {}

  /** An unmodifiable copy sorted by row name; null (an older record) = no rows. */
  public static Map<String, List<Long>> rows(Map<String, List<Long>> rows) {
    if (rows == null) {
      return Map.of();
    }
    Map<String, List<Long>> copy = new TreeMap<>();
    rows.forEach((name, counts) -> copy.put(name, counts == null ? List.of() : List.copyOf(counts)));
    return Collections.unmodifiableMap(copy);
  }
}
