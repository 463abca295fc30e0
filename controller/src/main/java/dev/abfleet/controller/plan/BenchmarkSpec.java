package dev.abfleet.controller.plan;

import dev.abfleet.model.VolumeTransports;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.abfleet.model.CounterRatio;
import java.util.List;

/**
 * What runs inside each boot.
 *
 * @param harness empty = fleetbench
 * @param metrics empty = every metric of the harness
 * @param iterations measured iterations per metric per boot; 0 = harness default
 * @param iterationMs length of one iteration in ms; 0 = harness default
 * @param warmupIterations warm-up iterations before the measured ones
 * @param volume "guest" (tmpfs in the guest) or "host" (a fresh host directory shared in)
 * @param files files in the find_recursive / rm_rf tree; 0 = harness default
 * @param cache "warm" or "cold" (caches dropped before each iteration)
 * @param workload a user workload run instead of the harness; null = the harness
 * @param transport volume host only: "virtiofs", "9p", or "auto" (= empty: the first the host
 *     offers)
 * @param ratios counter ratios the reports show; empty = the default ones
 * @param load the harness's threads and file sizes; null (events recorded before it existed) =
 *     {@link Load#DEFAULT}
 */
public record BenchmarkSpec(
    String harness, List<String> metrics, int iterations, int iterationMs, int warmupIterations,
    String volume, int files, String cache, WorkloadSpec workload,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) String transport,
    // Left out of the journal when empty: events written before ratios existed read back equal.
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<CounterRatio> ratios,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = Load.IsDefault.class) Load load) {
  public static final String VOLUME_GUEST = "guest";
  public static final String VOLUME_HOST = "host";

  /**
   * How hard the harness works in each boot.
   *
   * @param threads harness threads, each on its own files; 0 = one per guest vCPU
   * @param seqSizeMib seq_read's file per thread in MiB; 0 = harness default (16)
   * @param fileSize bytes in each file the metadata and tree metrics create; 0 = empty files
   */
  public record Load(int threads, int seqSizeMib, int fileSize) {
    public static final Load DEFAULT = new Load(0, 0, 0);
    /** fleetbench's limits. */
    public static final int MAX_THREADS = 256;
    public static final int MAX_SEQ_SIZE_MIB = 4096;
    public static final int MAX_FILE_SIZE = 16 * 1024 * 1024;

    /**
     * Jackson's filter: the defaults are not written, so a benchmark without threads or sizes
     * is journalled byte for byte as before they existed (equals true = leave out).
     */
    static final class IsDefault {
      @Override
      public boolean equals(Object o) {
        return o == null || DEFAULT.equals(o);
      }

      @Override
      public int hashCode() {
        return 0;
      }
    }
  }

  public BenchmarkSpec {
    load = load == null ? Load.DEFAULT : load;
    harness = harness == null || harness.isEmpty() ? "fleetbench" : harness;
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
    volume = volume == null || volume.isEmpty() ? VOLUME_GUEST : volume;
    cache = cache == null || cache.isEmpty() ? "warm" : cache;
    transport = transport == null || transport.equals(TRANSPORT_AUTO) ? "" : transport;
    ratios = ratios == null ? List.of() : List.copyOf(ratios);
  }

  /** What lets the host pick the volume transport. */
  public static final String TRANSPORT_AUTO = VolumeTransports.AUTO;
  /** The transports a benchmark or an arm may name. */
  public static final List<String> TRANSPORTS = VolumeTransports.NAMES;

  /** Over the host's preferred transport, with the default counter ratios, threads and sizes. */
  public BenchmarkSpec(String harness, List<String> metrics, int iterations, int iterationMs,
      int warmupIterations, String volume, int files, String cache, WorkloadSpec workload) {
    this(harness, metrics, iterations, iterationMs, warmupIterations, volume, files, cache, workload, "",
        List.of(), Load.DEFAULT);
  }

  /** Over the host's preferred transport, with the default counter ratios. */
  public BenchmarkSpec(String harness, List<String> metrics, int iterations, int iterationMs,
      int warmupIterations, String volume, int files, String cache, WorkloadSpec workload, Load load) {
    this(harness, metrics, iterations, iterationMs, warmupIterations, volume, files, cache, workload, "",
        List.of(), load);
  }

  /** With the default threads and sizes. */
  public BenchmarkSpec(String harness, List<String> metrics, int iterations, int iterationMs,
      int warmupIterations, String volume, int files, String cache, WorkloadSpec workload, String transport,
      List<CounterRatio> ratios) {
    this(harness, metrics, iterations, iterationMs, warmupIterations, volume, files, cache, workload, transport,
        ratios, Load.DEFAULT);
  }

  /** The built-in harness (no workload). */
  public BenchmarkSpec(String harness, List<String> metrics, int iterations, int iterationMs,
      int warmupIterations, String volume, int files, String cache) {
    this(harness, metrics, iterations, iterationMs, warmupIterations, volume, files, cache, null);
  }

  /** A benchmark on the guest's tmpfs with the harness's file count and warm caches. */
  public BenchmarkSpec(String harness, List<String> metrics, int iterations, int iterationMs,
      int warmupIterations) {
    this(harness, metrics, iterations, iterationMs, warmupIterations, VOLUME_GUEST, 0, "warm");
  }

  /** True when the metrics run on a host-shared volume. */
  public boolean hostVolume() {
    return VOLUME_HOST.equals(volume);
  }
}
