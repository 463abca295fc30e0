package dev.abfleet.config;

import dev.abfleet.model.VolumeTransports;

import dev.abfleet.model.CounterRatio;
import java.nio.file.Path;
import java.util.List;

/**
 * An experiment spec file ({@code abfleet ab --spec FILE}), validated: everything an experiment
 * has. A null field was not given (the command line or fleet.yaml decides).
 *
 * @param benchmark a fleet.yaml benchmark name
 * @param metrics only these metrics of the benchmark
 * @param iterations measured iterations per metric per boot
 * @param pairs boot pairs of a fixed design (never given together with looks)
 * @param looks pair counts of a sequential design
 * @param threshold noise threshold, relative
 * @param alpha family-wise significance level
 * @param seed seed of the AB/BA order shuffle
 * @param bootTimeoutS kill a boot after this many seconds; null = the fleet's (unset there: adaptive)
 * @param warmupBoot start each freshly leased host with an uncounted baseline boot
 * @param vm VM shape of every arm that does not set its own
 * @param arms one baseline, one or more candidates, at most one ceiling, in file order
 * @param workload a user workload run on the benchmark's volume instead of its metrics
 * @param files files in the find_recursive / rm_rf tree (fleetbench), instead of the benchmark's
 * @param volume the host volume of every arm that does not set its own: its transport replaces
 *     the benchmark's
 * @param ratios counter ratios the reports show, instead of the benchmark's (empty = the default
 *     ones)
 * @param load fleetbench's threads and file sizes, each instead of the benchmark's when given
 */
public record SpecFile(
    String benchmark, List<String> metrics, Integer iterations, Integer pairs, List<Integer> looks,
    Double threshold, Double alpha, Long seed, Integer bootTimeoutS, Boolean warmupBoot, Vm vm, List<Arm> arms,
    FleetConfig.Workload workload, Integer files, Volume volume, List<CounterRatio> ratios, Load load) {

  public SpecFile {
    arms = List.copyOf(arms);
    volume = volume == null ? Volume.UNSET : volume;
    ratios = ratios == null ? null : List.copyOf(ratios);
    load = load == null ? Load.UNSET : load;
  }

  /** Without a volume, ratios, threads or sizes of its own. */
  public SpecFile(String benchmark, List<String> metrics, Integer iterations, Integer pairs, List<Integer> looks,
      Double threshold, Double alpha, Long seed, Integer bootTimeoutS, Boolean warmupBoot, Vm vm, List<Arm> arms,
      FleetConfig.Workload workload, Integer files) {
    this(benchmark, metrics, iterations, pairs, looks, threshold, alpha, seed, bootTimeoutS, warmupBoot, vm, arms,
        workload, files, Volume.UNSET, null, Load.UNSET);
  }

  /** Top-level threads, seq_size (MiB) and file_size (bytes); each null field was not given. */
  public record Load(Integer threads, Integer seqSizeMib, Integer fileSize) {
    public static final Load UNSET = new Load(null, null, null);

    /** {@code fallback} with every field given here in its place. */
    public FleetConfig.Load over(FleetConfig.Load fallback) {
      return new FleetConfig.Load(threads != null ? threads : fallback.threads(),
          seqSizeMib != null ? seqSizeMib : fallback.seqSizeMib(), fileSize != null ? fileSize : fallback.fileSize());
    }
  }

  /** Without a workload. */
  public SpecFile(String benchmark, List<String> metrics, Integer iterations, Integer pairs, List<Integer> looks,
      Double threshold, Double alpha, Long seed, Integer bootTimeoutS, Boolean warmupBoot, Vm vm, List<Arm> arms) {
    this(benchmark, metrics, iterations, pairs, looks, threshold, alpha, seed, bootTimeoutS, warmupBoot, vm, arms,
        null, null);
  }

  /**
   * The fleet with this file's workload, file count, ratios, threads and sizes, if any, on the benchmark
   * {@code name} (null = the default one).
   */
  public FleetConfig applyTo(FleetConfig config, String name) {
    FleetConfig c = workload == null ? config : config.withWorkload(name, workload);
    c = volume.transport() == null ? c : c.withTransport(name, volume.transport());
    c = files == null ? c : c.withFiles(name, files);
    c = ratios == null ? c : c.withRatios(name, ratios);
    return load.equals(Load.UNSET) ? c : c.withLoad(name, load.over(c.benchmark(name).load()));
  }

  /**
   * How a host volume is shared ({@code volume: {transport: virtiofs, cache: always}}); each
   * null field was not given.
   *
   * @param transport "virtiofs", "9p" or "auto"
   * @param cache virtio-fs: the daemon's cache mode, "auto", "always" or "none"
   */
  public record Volume(String transport, String cache) {
    public static final Volume UNSET = new Volume(null, null);
    /** The transports a benchmark or volume may name; auto = the first the host offers. */
    public static final List<String> TRANSPORTS = VolumeTransports.CHOICES;
    /** virtiofsd's cache modes. */
    public static final List<String> CACHES = VolumeTransports.CACHE_MODES;

    /** This volume with every field it leaves unset taken from {@code fallback}. */
    public Volume over(Volume fallback) {
      return new Volume(transport != null ? transport : fallback.transport(),
          cache != null ? cache : fallback.cache());
    }
  }

  /** A VM shape; each null field was not given. */
  public record Vm(Integer vcpus, Integer memoryMib, Boolean pinVcpus) {
    public static final Vm UNSET = new Vm(null, null, null);

    /** This shape with every field it leaves unset taken from {@code fallback}. */
    public Vm over(Vm fallback) {
      return new Vm(vcpus != null ? vcpus : fallback.vcpus(), memoryMib != null ? memoryMib : fallback.memoryMib(),
          pinVcpus != null ? pinVcpus : fallback.pinVcpus());
    }
  }

  /**
   * One arm.
   *
   * @param role baseline, candidate or ceiling
   * @param kernel the kernel image; a relative path in the file is relative to the file's directory;
   *     null when the arm's kernel is built from source ({@code build})
   * @param cmdline extra kernel arguments, appended to the driver's defaults
   * @param modules kernel modules the guest loads before the harness
   * @param modulesDir the kernel's module tree on the worker hosts; empty = beside the kernel
   * @param volumeOptions mount options appended to the volume transport's defaults
   * @param vm this arm's VM shape; unset fields come from the file's vm, then fleet.yaml
   * @param where "file:line" of the arm, for messages
   * @param build how to build the arm's kernel from source; null = {@code kernel} is an image
   * @param volume this arm's host volume; unset fields come from the file's volume, then the benchmark
   */
  public record Arm(String name, String role, Path kernel, String cmdline, List<String> modules, String modulesDir,
      String volumeOptions, Vm vm, String where, Build build, Volume volume) {
    public Arm {
      modules = List.copyOf(modules);
      volume = volume == null ? Volume.UNSET : volume;
    }

    /** An arm whose volume is the file's. */
    public Arm(String name, String role, Path kernel, String cmdline, List<String> modules, String modulesDir,
        String volumeOptions, Vm vm, String where, Build build) {
      this(name, role, kernel, cmdline, modules, modulesDir, volumeOptions, vm, where, build, Volume.UNSET);
    }

    /** An arm whose kernel is an image. */
    public Arm(String name, String role, Path kernel, String cmdline, List<String> modules, String modulesDir,
        String volumeOptions, Vm vm, String where) {
      this(name, role, kernel, cmdline, modules, modulesDir, volumeOptions, vm, where, null);
    }
  }

  /**
   * A kernel built from source ({@code build:} of an arm). Relative paths in the file are relative
   * to the file's directory.
   *
   * @param source a kernel source tarball, an unpacked tree or a git repository
   * @param ref the commit, branch or tag of a git source; null for a tarball or tree
   * @param patches applied in order ({@code git apply} semantics)
   * @param config the base: abfleet-minimal, tinyconfig, defconfig, or a .config file's path
   * @param configFragments fragment files merged on top, in order
   * @param configLines {@code CONFIG_X=y} lines merged after the fragments
   * @param arch x86_64 or aarch64
   * @param makeArgs extra make arguments, e.g. KCFLAGS=-O2
   * @param where "file:line" of the build block, for messages
   */
  public record Build(Path source, String ref, List<Path> patches, String config, List<Path> configFragments,
      List<String> configLines, String arch, List<String> makeArgs, String where) {
    public Build {
      patches = List.copyOf(patches);
      configFragments = List.copyOf(configFragments);
      configLines = List.copyOf(configLines);
      makeArgs = List.copyOf(makeArgs);
    }
  }
}
