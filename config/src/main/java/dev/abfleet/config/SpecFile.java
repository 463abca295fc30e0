package dev.abfleet.config;

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
 * @param bootTimeoutS kill a boot after this many seconds
 * @param warmupBoot start each freshly leased host with an uncounted baseline boot
 * @param vm VM shape of every arm that does not set its own
 * @param arms one baseline, one or more candidates, at most one ceiling, in file order
 * @param workload a user workload run on the benchmark's volume instead of its metrics
 * @param files files in the find_recursive / rm_rf tree (fleetbench), instead of the benchmark's
 */
public record SpecFile(
    String benchmark, List<String> metrics, Integer iterations, Integer pairs, List<Integer> looks,
    Double threshold, Double alpha, Long seed, Integer bootTimeoutS, Boolean warmupBoot, Vm vm, List<Arm> arms,
    FleetConfig.Workload workload, Integer files) {

  public SpecFile {
    arms = List.copyOf(arms);
  }

  /** Without a workload. */
  public SpecFile(String benchmark, List<String> metrics, Integer iterations, Integer pairs, List<Integer> looks,
      Double threshold, Double alpha, Long seed, Integer bootTimeoutS, Boolean warmupBoot, Vm vm, List<Arm> arms) {
    this(benchmark, metrics, iterations, pairs, looks, threshold, alpha, seed, bootTimeoutS, warmupBoot, vm, arms,
        null, null);
  }

  /**
   * The fleet with this file's workload or file count, if any, on the benchmark {@code name}
   * (null = the default one).
   */
  public FleetConfig applyTo(FleetConfig config, String name) {
    FleetConfig c = workload == null ? config : config.withWorkload(name, workload);
    return files == null ? c : c.withFiles(name, files);
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
   * @param kernel the kernel image; a relative path in the file is relative to the file's directory
   * @param cmdline extra kernel arguments, appended to the driver's defaults
   * @param modules kernel modules the guest loads before the harness
   * @param modulesDir the kernel's module tree on the worker hosts; empty = beside the kernel
   * @param volumeOptions mount options appended to the volume transport's defaults
   * @param vm this arm's VM shape; unset fields come from the file's vm, then fleet.yaml
   * @param where "file:line" of the arm, for messages
   */
  public record Arm(String name, String role, Path kernel, String cmdline, List<String> modules, String modulesDir,
      String volumeOptions, Vm vm, String where) {
    public Arm {
      modules = List.copyOf(modules);
    }
  }
}
