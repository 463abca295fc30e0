package dev.abfleet.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The benchmark harnesses this worker can run in a guest, and the metrics each reports. */
public final class Harnesses {
  private Harnesses() {}

  /** A metric a harness reports: unit and which direction is better. */
  public record MetricDef(String name, String unit, String better, String what) {}

  public static final String FLEETBENCH = "fleetbench";

  private static final Map<String, MetricDef> FLEETBENCH_METRICS = new LinkedHashMap<>();

  static {
    put(new MetricDef("metadata_stat", "ops/s", "higher", "stat() of existing files"));
    put(new MetricDef("negative_lookup", "ops/s", "higher", "stat() of names that do not exist"));
    put(new MetricDef("create_delete", "ops/s", "higher", "create + close + unlink of a file"));
    put(new MetricDef("seq_read", "MiB/s", "higher", "sequential 128 KiB reads of a 16 MiB file"));
    put(new MetricDef("find_recursive", "ops/s", "higher",
        "walk a tree of nested directories (readdir + lstat of each entry; --files, default 2000)"));
    put(new MetricDef("rm_rf", "ops/s", "higher",
        "remove that tree (built before each iteration, untimed)"));
  }

  private static void put(MetricDef m) {
    FLEETBENCH_METRICS.put(m.name(), m);
  }

  public static List<String> names() {
    return List.of(FLEETBENCH);
  }

  /** Metrics of a harness, in report order; empty for an unknown harness. */
  public static List<MetricDef> metrics(String harness) {
    if (harness == null || harness.isEmpty() || harness.equals(FLEETBENCH)) {
      return List.copyOf(FLEETBENCH_METRICS.values());
    }
    return List.of();
  }

  public static Optional<MetricDef> metric(String harness, String name) {
    return metrics(harness).stream().filter(m -> m.name().equals(name)).findFirst();
  }

  /** One line naming an unknown metric and the valid ones, or empty when every name is known. */
  public static Optional<String> checkMetrics(String harness, List<String> names) {
    List<MetricDef> known = metrics(harness);
    if (known.isEmpty()) {
      return Optional.of("unknown harness '" + BenchmarkChecks.quote(String.valueOf(harness)) + "'; expected one of " + String.join(", ", names()));
    }
    for (String n : names) {
      if (metric(harness, n).isEmpty()) {
        return Optional.of("unknown metric '" + BenchmarkChecks.quote(n) + "' for harness " + (harness == null || harness.isEmpty() ? FLEETBENCH : harness)
            + "; expected one of " + String.join(", ", known.stream().map(MetricDef::name).toList()));
      }
    }
    return Optional.empty();
  }
}
