package dev.abfleet.worker.guest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the guest harness should run, as the {@code abfleet.*} kernel command line parameters
 * that the initramfs /init hands to fleetbench. Zero or empty means the harness default.
 *
 * @param metrics metric names; empty = all
 * @param iterations measured iterations per metric; 0 = default (5)
 * @param iterationMs length of one iteration in ms; 0 = default (200)
 * @param warmup warm-up iterations per metric; 0 = none
 * @param out guest path of the results channel; empty = /dev/ttyS1 (arm64 virt: "/dev/hvc0")
 * @param dir guest working directory; empty = /bench (a tmpfs)
 * @param files files in the find_recursive / rm_rf tree; 0 = default (2000)
 * @param cold drop the guest's page, dentry and inode caches before each iteration
 */
public record HarnessParams(
    List<String> metrics, int iterations, int iterationMs, int warmup, String out, String dir,
    int files, boolean cold) {

  private static final Pattern METRIC = Pattern.compile("[a-z0-9_]+");
  private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9_./-]*");

  /**
   * @throws IllegalArgumentException a value is negative or could break the kernel command line
   */
  public HarnessParams {
    metrics = List.copyOf(metrics);
    for (String m : metrics) {
      require(METRIC.matcher(m).matches(), "metric name '" + m + "' must match [a-z0-9_]+");
    }
    require(files >= 0, "files must be >= 0, got " + files);
    require(iterations >= 0 && iterationMs >= 0 && warmup >= 0,
        "iterations, iterationMs and warmup must be >= 0, got " + iterations + ", " + iterationMs
            + ", " + warmup);
    out = out == null ? "" : out;
    dir = dir == null ? "" : dir;
    require(out.isEmpty() || PATH.matcher(out).matches(),
        "out '" + out + "' must be an absolute path of [A-Za-z0-9_./-]");
    require(dir.isEmpty() || PATH.matcher(dir).matches(),
        "dir '" + dir + "' must be an absolute path of [A-Za-z0-9_./-]");
  }

  /** Default file count and warm caches. */
  public HarnessParams(List<String> metrics, int iterations, int iterationMs, int warmup,
      String out, String dir) {
    this(metrics, iterations, iterationMs, warmup, out, dir, 0, false);
  }

  /** Every harness default. */
  public static HarnessParams defaults() {
    return new HarnessParams(List.of(), 0, 0, 0, "", "");
  }

  /** The parameters to append to the kernel command line, e.g. "abfleet.iterations=3". */
  public List<String> kernelArgs() {
    List<String> args = new ArrayList<>();
    if (!metrics.isEmpty()) {
      args.add("abfleet.metrics=" + String.join(",", metrics));
    }
    if (iterations > 0) {
      args.add("abfleet.iterations=" + iterations);
    }
    if (iterationMs > 0) {
      args.add("abfleet.iteration_ms=" + iterationMs);
    }
    if (warmup > 0) {
      args.add("abfleet.warmup=" + warmup);
    }
    if (!out.isEmpty()) {
      args.add("abfleet.out=" + out);
    }
    if (!dir.isEmpty()) {
      args.add("abfleet.dir=" + dir);
    }
    if (files > 0) {
      args.add("abfleet.files=" + files);
    }
    if (cold) {
      args.add("abfleet.cache=cold");
    }
    return args;
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
