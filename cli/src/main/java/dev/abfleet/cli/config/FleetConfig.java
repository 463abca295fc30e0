package dev.abfleet.cli.config;

import java.util.List;
import java.util.Map;

/** A validated fleet.yaml. Every field has a default, so an empty file is a valid fleet. */
public record FleetConfig(
    Controller controller, Policy policy, Vm vm, Map<String, Benchmark> benchmarks, String defaultBenchmark) {

  /** Where the controller listens and keeps its journal. */
  public record Controller(
      String grpcHost, int grpcPort, int clusterPort, List<String> seedNodes, int heartbeatIntervalMs, Store store) {}

  /**
   * The event journal. kind "h2": an embedded file database under {@code path}; kind
   * "postgres": a shared database at {@code url} (password read from the environment variable
   * named by {@code passwordEnv}, never from the file).
   */
  public record Store(String kind, String path, String url, String user, String passwordEnv) {}

  /** Default decision policy of experiments that do not set their own. */
  public record Policy(double noiseThreshold, double alpha, int pairs, int bootTimeoutS) {}

  /** Default VM shape: vCPUs and memory in MiB. */
  public record Vm(int vcpus, int memoryMib) {}

  /**
   * A benchmark definition: harness, the metrics it measures, which of them gate,
   * measured iterations per boot, iteration length in ms, warm-up iterations per boot.
   */
  public record Benchmark(
      String name, String harness, List<String> metrics, List<String> gating, int iterations, int iterationMs, int warmup) {}

  public Benchmark benchmark(String name) {
    Benchmark b = benchmarks.get(name == null ? defaultBenchmark : name);
    if (b == null) {
      throw new dev.abfleet.cli.Problem("unknown benchmark '" + name + "'; fleet.yaml defines "
          + String.join(", ", benchmarks.keySet()));
    }
    return b;
  }
}
