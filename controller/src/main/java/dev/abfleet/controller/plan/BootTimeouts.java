package dev.abfleet.controller.plan;

import dev.abfleet.model.Harnesses;
import java.util.List;

/**
 * How long one boot may run before its worker kills it as TIMEOUT. A timeout the user set
 * ({@code policy.boot_timeout_s} &gt; 0) is used as given. Otherwise (0 = adaptive) it follows the
 * work: {@link #estimateS} from the benchmark's size, and once {@link #MIN_BOOTS} boots of the
 * arm completed, at least {@link #OBSERVED_FACTOR} times their median run time, that part capped
 * at {@link #OBSERVED_CAP_S}. Pure: the observed durations come from recorded runs, so replaying
 * an experiment's journal plans the same timeouts.
 */
public final class BootTimeouts {
  private BootTimeouts() {}

  /**
   * The least an adaptive timeout allows: the fixed timeout fleet.yaml gave every boot before
   * timeouts followed the work, so no boot that passed then is cut short now.
   */
  public static final int FLOOR_S = 180;
  /**
   * Kernel boot, initramfs unpacking, module loading and power-off, in seconds: 9.5-14 s wall per
   * boot on a 2-core TCG host with the 9p modules (BENCHMARKS.md, host volumes), doubled for load.
   */
  static final int BOOT_ALLOWANCE_S = 30;
  /**
   * Milliseconds per file and iteration of a tree metric on a host volume: rm_rf rebuilds the
   * tree before each iteration (create_delete ran 317 ops/s over 9p under TCG, so 3.2 ms a file)
   * and removes it (610 ops/s, 1.6 ms); find_recursive walks it (1.30k ops/s, 0.8 ms). The
   * demo's 2,000-file boots with all six metrics took 64-112 s (BENCHMARKS.md, 9p).
   */
  static final int HOST_TREE_MS_PER_FILE = 5;
  /** Milliseconds per MiB seq_read writes to a host volume before it reads (not measured: an allowance). */
  static final int HOST_SEQ_MS_PER_MIB = 20;
  /** The estimate is this many times the work it adds up, for a host busy with other work. */
  static final double SAFETY = 2.0;
  /** Completed boots of an arm before their durations count. */
  public static final int MIN_BOOTS = 3;
  /** An adaptive timeout is at least this many times the median completed boot. */
  public static final int OBSERVED_FACTOR = 3;
  /** The observed part never raises a timeout past 30 minutes (the estimate may, for big work). */
  public static final int OBSERVED_CAP_S = 1800;

  private static final int HARNESS_ITERATIONS = 5;
  private static final int HARNESS_ITERATION_MS = 200;
  private static final int HARNESS_FILES = 2000;
  private static final int HARNESS_SEQ_MIB = 16;
  private static final List<String> TREE_METRICS = List.of("find_recursive", "rm_rf");

  /**
   * The timeout of one boot and how it was chosen.
   *
   * @param seconds the limit the boot runs under
   * @param adaptive false = the user's fixed {@code boot_timeout_s}
   * @param estimateS what the benchmark's size asks for; 0 for a fixed timeout
   * @param boots completed boots whose durations counted; 0 = too few (fewer than {@link #MIN_BOOTS})
   * @param medianS their median run time in seconds; 0 when none counted
   */
  public record Limit(int seconds, boolean adaptive, int estimateS, int boots, long medianS) {
    public static Limit fixed(int seconds) {
      return new Limit(seconds, false, 0, 0, 0);
    }

    /** "fixed 300 s", "adaptive 120 s (benchmark estimate)", "adaptive 312 s (3 x median 104 s of 6 boots)". */
    public String text() {
      return adaptive ? "adaptive " + seconds + " s (" + why() + ")" : "fixed " + seconds + " s";
    }

    /** How an adaptive limit was reached: "benchmark estimate" or "3 x median 104 s of 6 boots"; empty when fixed. */
    public String why() {
      if (!adaptive) {
        return "";
      }
      if (boots == 0 || seconds <= estimateS) {
        return "benchmark estimate";
      }
      return OBSERVED_FACTOR + " x median " + medianS + " s of " + boots + " boots"
          + (OBSERVED_FACTOR * medianS > seconds ? ", capped at " + seconds + " s" : "");
    }
  }

  /**
   * A boot's limit: {@code fixedS} when the user set one (&gt; 0), raised for a workload to the
   * workload's own limit plus {@link WorkloadSpec#BOOT_MARGIN_S} so the guest's limit always fires
   * first; else adaptive from {@link #estimateS} and the run times in ms of the arm's completed
   * boots.
   */
  public static Limit limit(int fixedS, BenchmarkSpec benchmark, int vcpus, List<Long> completedRunMs) {
    WorkloadSpec w = benchmark.workload();
    if (fixedS > 0) {
      return Limit.fixed(w == null ? fixedS : Math.max(fixedS, w.effectiveTimeoutS() + WorkloadSpec.BOOT_MARGIN_S));
    }
    int estimate = estimateS(benchmark, vcpus);
    long[] runs = completedRunMs.stream().mapToLong(Long::longValue).filter(ms -> ms > 0).sorted().toArray();
    if (runs.length < MIN_BOOTS) {
      return new Limit(estimate, true, estimate, 0, 0);
    }
    long medianS = (medianMs(runs) + 999) / 1000;
    long observed = Math.min((long) OBSERVED_FACTOR * medianS, OBSERVED_CAP_S);
    return new Limit((int) Math.max(estimate, observed), true, estimate, runs.length, medianS);
  }

  /**
   * Seconds a boot of this benchmark should take on a loaded TCG host, never below
   * {@link #FLOOR_S}: {@link #BOOT_ALLOWANCE_S}, plus every metric's measured and warm-up
   * iterations, plus on a host volume each tree metric's files per iteration and seq_read's data
   * (its MiB per thread times the threads, one per vCPU unless set), all times {@link #SAFETY}.
   * A user workload gets its own time limit plus {@link WorkloadSpec#BOOT_MARGIN_S}.
   */
  public static int estimateS(BenchmarkSpec b, int vcpus) {
    if (b.workload() != null) {
      return Math.max(FLOOR_S, b.workload().effectiveTimeoutS() + WorkloadSpec.BOOT_MARGIN_S);
    }
    List<String> metrics = b.metrics().isEmpty()
        ? Harnesses.metrics(b.harness()).stream().map(Harnesses.MetricDef::name).toList() : b.metrics();
    long iterations = (long) (b.iterations() > 0 ? b.iterations() : HARNESS_ITERATIONS) + b.warmupIterations();
    long ms = metrics.size() * iterations * (b.iterationMs() > 0 ? b.iterationMs() : HARNESS_ITERATION_MS);
    if (b.hostVolume()) {
      long files = b.files() > 0 ? b.files() : HARNESS_FILES;
      ms += metrics.stream().filter(TREE_METRICS::contains).count() * iterations * files * HOST_TREE_MS_PER_FILE;
      if (metrics.contains("seq_read")) {
        long threads = b.load().threads() > 0 ? b.load().threads() : Math.max(1, vcpus);
        long mib = b.load().seqSizeMib() > 0 ? b.load().seqSizeMib() : HARNESS_SEQ_MIB;
        ms += threads * mib * HOST_SEQ_MS_PER_MIB;
      }
    }
    double seconds = (BOOT_ALLOWANCE_S + ms / 1000.0) * SAFETY;
    return (int) Math.min(Integer.MAX_VALUE, Math.max(FLOOR_S, (long) Math.ceil(seconds)));
  }

  private static long medianMs(long[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
