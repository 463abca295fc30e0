package dev.abfleet.controller.experiment;

import java.util.List;

/**
 * What runs inside each boot.
 *
 * @param harness empty = fleetbench
 * @param metrics empty = every metric of the harness
 * @param iterations measured iterations per metric per boot; 0 = harness default
 * @param iterationMs length of one iteration in ms; 0 = harness default
 * @param warmupIterations warm-up iterations before the measured ones
 */
public record BenchmarkSpec(
    String harness, List<String> metrics, int iterations, int iterationMs, int warmupIterations) {
  public BenchmarkSpec {
    harness = harness == null || harness.isEmpty() ? "fleetbench" : harness;
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
  }
}
