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
 * @param volume the host volume /init mounts and runs the harness on; null = none (the
 *     harness runs in {@code dir})
 * @param load threads and file sizes; {@link Load#DEFAULT} = the harness defaults
 */
public record HarnessParams(
    List<String> metrics, int iterations, int iterationMs, int warmup, String out, String dir,
    int files, boolean cold, Volume volume, Load load) {

  /**
   * How many harness threads run each metric at once and how large their files are, each
   * within fleetbench's range.
   *
   * @param threads harness threads; 0 = one per guest vCPU (at most 256)
   * @param seqSizeMib seq_read's file per thread in MiB; 0 = 16 (at most 4096)
   * @param fileSize bytes in each file the metadata and tree metrics create; 0 = empty files
   *     (at most 16 MiB)
   */
  public record Load(int threads, int seqSizeMib, int fileSize) {
    public static final int MAX_THREADS = 256;
    public static final int MAX_SEQ_SIZE_MIB = 4096;
    public static final int MAX_FILE_SIZE = 16 * 1024 * 1024;
    public static final Load DEFAULT = new Load(0, 0, 0);

    /** @throws IllegalArgumentException a value is outside fleetbench's range */
    public Load {
      require(threads >= 0 && threads <= MAX_THREADS, "threads must be in 0..256 (0 = one per vCPU), got "
          + threads);
      require(seqSizeMib >= 0 && seqSizeMib <= MAX_SEQ_SIZE_MIB, "seq_size must be in 0..4096 MiB, got "
          + seqSizeMib);
      require(fileSize >= 0 && fileSize <= MAX_FILE_SIZE, "file_size must be in 0..16777216 bytes, got "
          + fileSize);
    }
  }

  /**
   * A host volume as /init mounts it: {@code mount -t FSTYPE -o OPTIONS TAG /mnt/host}, then
   * fleetbench runs with {@code --dir /mnt/host}.
   *
   * @param fsType "9p" or "virtiofs"
   * @param tag the virtio mount tag
   * @param options comma-separated mount options; empty = none
   */
  public record Volume(String fsType, String tag, String options) {
    private static final Pattern FS_TYPE = Pattern.compile("9p|virtiofs");
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_-]{1,31}");
    private static final Pattern OPTIONS = Pattern.compile("[A-Za-z0-9_.,=:/+-]*");

    /** @throws IllegalArgumentException a value could break the kernel command line or the mount */
    public Volume {
      options = options == null ? "" : options;
      require(fsType != null && FS_TYPE.matcher(fsType).matches(), "volume file system '" + fsType
          + "' must be 9p or virtiofs");
      require(tag != null && TAG.matcher(tag).matches(), "volume tag '" + tag
          + "' must be 1-31 letters, digits, '_' or '-'");
      require(OPTIONS.matcher(options).matches(), "volume options '" + options
          + "' may only hold letters, digits and _ . , = : / + -");
    }
  }

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
    load = load == null ? Load.DEFAULT : load;
  }

  /** Default threads and sizes. */
  public HarnessParams(List<String> metrics, int iterations, int iterationMs, int warmup, String out,
      String dir, int files, boolean cold, Volume volume) {
    this(metrics, iterations, iterationMs, warmup, out, dir, files, cold, volume, Load.DEFAULT);
  }

  /** No host volume. */
  public HarnessParams(List<String> metrics, int iterations, int iterationMs, int warmup, String out,
      String dir, int files, boolean cold) {
    this(metrics, iterations, iterationMs, warmup, out, dir, files, cold, null);
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

  /** The same parameters with {@code volume} as the host volume. */
  public HarnessParams withVolume(Volume v) {
    return new HarnessParams(metrics, iterations, iterationMs, warmup, out, dir, files, cold, v, load);
  }

  /** The same parameters with {@code l} as threads and sizes. */
  public HarnessParams withLoad(Load l) {
    return new HarnessParams(metrics, iterations, iterationMs, warmup, out, dir, files, cold, volume, l);
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
    if (load.threads() > 0) {
      args.add("abfleet.threads=" + load.threads());
    }
    if (load.seqSizeMib() > 0) {
      args.add("abfleet.seq_size=" + load.seqSizeMib());
    }
    if (load.fileSize() > 0) {
      args.add("abfleet.file_size=" + load.fileSize());
    }
    if (volume != null) {
      args.add("abfleet.volume=" + volume.fsType());
      args.add("abfleet.volume_tag=" + volume.tag());
      if (!volume.options().isEmpty()) {
        args.add("abfleet.volume_opts=" + volume.options());
      }
    }
    return args;
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
