package dev.abfleet.controller.experiment;

import dev.abfleet.model.Arch;

import dev.abfleet.controller.fleet.HostNames;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.controller.plan.GuestSetup;
import dev.abfleet.controller.plan.WorkloadSpec;
import dev.abfleet.model.BenchmarkChecks;
import dev.abfleet.model.CounterRatio;
import dev.abfleet.model.WorkloadMetrics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Checks a spec before it is accepted; each problem names the field and the fix. */
public final class SpecValidator {
  private SpecValidator() {}

  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final Set<String> HYPERVISORS = Set.of("qemu", "vz", "sim");
  private static final Set<String> ARCHES = Set.copyOf(Arch.NAMES);
  private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_./-]{1,63}");
  static final int MAX_HOSTS = 1000;
  private static final Set<String> PRIORITIES = Set.of("pr", "nightly", "adhoc");
  static final int MAX_PAIRS = 1000;

  /** Problems found, in field order; empty = valid. */
  public static List<String> validate(ExperimentSpec spec) {
    List<String> problems = new ArrayList<>();
    if (SpecLimits.check(spec, problems)) {
      return problems;
    }
    checkArms(spec.arms(), problems);
    checkConsolePatterns(spec.consolePatterns(), problems);
    PolicySpec policy = spec.policy();
    if (policy.pairs() < 1 || policy.pairs() > MAX_PAIRS) {
      problems.add("policy.pairs: " + policy.pairs() + " is out of range; use 1.." + MAX_PAIRS
          + " (0 = " + PolicySpec.DEFAULT_PAIRS + ")");
    }
    List<Integer> looks = policy.looks();
    for (int i = 0; i < looks.size(); i++) {
      if (looks.get(i) < 2 || (i > 0 && looks.get(i) <= looks.get(i - 1))) {
        problems.add("policy.looks: " + looks + " must be ascending pair counts of at least 2, e.g. [8, 16, 24]");
        break;
      }
    }
    if (!looks.isEmpty() && policy.pairs() != looks.get(looks.size() - 1)) {
      problems.add("policy.pairs: " + policy.pairs() + " differs from the last look " + looks.get(looks.size() - 1)
          + "; leave pairs at 0 or set it to the last look");
    }
    if (!(policy.noiseThreshold() > 0 && policy.noiseThreshold() < 1)) {
      problems.add("policy.noise_threshold: " + policy.noiseThreshold()
          + " must be a fraction in (0, 1), e.g. 0.02 for 2%");
    }
    if (!(policy.alpha() > 0 && policy.alpha() < 1)) {
      problems.add("policy.alpha: " + policy.alpha() + " must be in (0, 1), e.g. 0.05");
    }
    if (!(policy.futilityEffect() >= 0 && policy.futilityEffect() < 1)) {
      problems.add("policy.futility_effect: " + policy.futilityEffect()
          + " must be a fraction in [0, 1), e.g. 0.05 for 5% (0 = no futility stop)");
    }
    if (!(policy.futilityBeta() > 0 && policy.futilityBeta() < 0.5)) {
      problems.add("policy.futility_beta: " + policy.futilityBeta() + " must be in (0, 0.5), e.g. 0.10");
    }
    problems.addAll(policy.hostQuiet().problems());
    if (policy.bootTimeoutS() < 0) {
      problems.add("policy.boot_timeout_s: " + policy.bootTimeoutS() + " must be positive");
    }
    checkSelector(spec.selector(), problems);
    checkGuestArch(spec, problems);
    checkClassBy(policy.classBy(), problems);
    if (!PRIORITIES.contains(spec.priority())) {
      problems.add("priority: unknown priority '" + shown(spec.priority())
          + "'; expected one of pr, adhoc, nightly (highest first; empty = adhoc)");
    }
    BenchmarkSpec bench = spec.benchmark();
    if (bench.iterations() < 0 || bench.iterationMs() < 0 || bench.warmupIterations() < 0) {
      problems.add("benchmark: iterations, iteration_ms and warmup_iterations must not be negative");
    }
    if (bench.workload() != null) {
      checkWorkload(bench.workload(), problems);
    }
    checkNames(spec, problems);
    checkVolume(spec, problems);
    CounterRatio.problems(bench.ratios()).forEach(p -> problems.add("benchmark." + p));
    checkLoad(bench.load(), problems);
    return problems;
  }

  /**
   * Harness, metrics, gating metrics, volume, cache and modules by the rules fleet.yaml and spec
   * files follow in the CLI ({@link BenchmarkChecks}): a submission that names an unknown metric
   * would otherwise run with nothing measured or nothing gating, and a module or harness given as
   * a path would name a file on the worker.
   */
  private static void checkNames(ExperimentSpec spec, List<String> problems) {
    BenchmarkSpec bench = spec.benchmark();
    BenchmarkChecks.volume(bench.volume()).ifPresent(p -> problems.add("benchmark.volume: " + p));
    BenchmarkChecks.cache(bench.cache()).ifPresent(p -> problems.add("benchmark.cache: " + p));
    for (int i = 0; i < spec.arms().size(); i++) {
      List<String> modules = spec.arms().get(i).guest().modules();
      for (int j = 0; j < modules.size(); j++) {
        String at = "arms[" + i + "].modules[" + j + "]: ";
        BenchmarkChecks.module(modules.get(j)).ifPresent(p -> problems.add(at + p));
      }
    }
    checkMetricNames(spec, problems);
  }

  private static void checkMetricNames(ExperimentSpec spec, List<String> problems) {
    BenchmarkSpec bench = spec.benchmark();
    // Empty names are SpecLimits' problem, named once there.
    List<String> metrics = bench.metrics();
    List<String> gating = spec.policy().gatingMetrics();
    if (metrics.contains("") || gating.contains("")) {
      return;
    }
    if (bench.workload() == null) {
      Optional<String> harness = BenchmarkChecks.harness(bench.harness());
      harness.ifPresent(p -> problems.add("benchmark.harness: " + p));
      if (harness.isEmpty()) {
        for (int i = 0; i < metrics.size(); i++) {
          String at = "benchmark.metrics[" + i + "]: ";
          BenchmarkChecks.metric(bench.harness(), metrics.get(i)).ifPresent(p -> problems.add(at + p));
        }
        for (int i = 0; i < gating.size(); i++) {
          String at = "policy.gating_metrics[" + i + "]: ";
          BenchmarkChecks.gating(bench.harness(), metrics, gating.get(i)).ifPresent(p -> problems.add(at + p));
        }
      }
    } else {
      // A workload reports metrics of its own names; gating names one of them, or any it reports.
      for (int i = 0; i < metrics.size(); i++) {
        String at = "benchmark.metrics[" + i + "]: ";
        WorkloadMetrics.nameProblem(metrics.get(i)).ifPresent(p -> problems.add(at + p));
      }
      for (int i = 0; i < gating.size(); i++) {
        String at = "policy.gating_metrics[" + i + "]: ";
        String g = gating.get(i);
        WorkloadMetrics.nameProblem(g).or(() -> metrics.isEmpty() ? Optional.empty()
            : BenchmarkChecks.gating(bench.harness(), metrics, g)).ifPresent(p -> problems.add(at + p));
      }
    }
  }

  /** Transports and daemon cache modes: known names, and only where a host volume is shared. */
  private static void checkVolume(ExperimentSpec spec, List<String> problems) {
    BenchmarkSpec bench = spec.benchmark();
    if (!bench.transport().isEmpty() && !BenchmarkSpec.TRANSPORTS.contains(bench.transport())) {
      problems.add("benchmark.transport: unknown volume transport '" + shown(bench.transport())
          + "'; expected virtiofs, 9p or auto");
    }
    for (ArmSpec arm : spec.arms()) {
      GuestSetup g = arm.guest();
      if (!g.volumeTransport().isEmpty() && !BenchmarkSpec.TRANSPORTS.contains(g.volumeTransport())) {
        problems.add("arms[" + shown(arm.name()) + "].volume_transport: unknown volume transport '" + shown(g.volumeTransport())
            + "'; expected virtiofs or 9p (empty = the benchmark's)");
      }
      if (!g.volumeCache().isEmpty() && !GuestSetup.DAEMON_CACHES.contains(g.volumeCache())) {
        problems.add("arms[" + shown(arm.name()) + "].volume_cache: unknown virtio-fs cache mode '" + shown(g.volumeCache())
            + "'; expected auto, always or none");
      }
      if (!bench.hostVolume() && !(g.volumeTransport().isEmpty() && g.volumeCache().isEmpty())) {
        problems.add("arms[" + shown(arm.name()) + "]: a volume transport or cache is set but benchmark volume is '"
            + bench.volume() + "'; use a volume: host benchmark, or drop them");
      }
    }
  }

  /** Within fleetbench's ranges; the wire's uint32 reads negative above 2^31. */
  private static void checkLoad(BenchmarkSpec.Load l, List<String> problems) {
    if (l.threads() < 0 || l.threads() > BenchmarkSpec.Load.MAX_THREADS) {
      problems.add("benchmark.threads: " + Integer.toUnsignedString(l.threads())
          + " must be in 0..256 (0 = one per guest vCPU)");
    }
    if (l.seqSizeMib() < 0 || l.seqSizeMib() > BenchmarkSpec.Load.MAX_SEQ_SIZE_MIB) {
      problems.add("benchmark.seq_size_mib: " + Integer.toUnsignedString(l.seqSizeMib())
          + " must be in 0..4096 (0 = 16 MiB)");
    }
    if (l.fileSize() < 0 || l.fileSize() > BenchmarkSpec.Load.MAX_FILE_SIZE) {
      problems.add("benchmark.file_size: " + Integer.toUnsignedString(l.fileSize())
          + " bytes must be in 0..16777216 (0 = empty files)");
    }
  }

  /**
   * Every arm's kernel of one guest architecture, and that architecture the selector's: an
   * aarch64 kernel is never sent to hosts selected as x86_64 (nor the reverse).
   */
  private static void checkGuestArch(ExperimentSpec spec, List<String> problems) {
    java.util.Map<String, List<String>> byArch = new java.util.TreeMap<>();
    for (ArmSpec arm : spec.arms()) {
      if (!arm.guest().arch().isEmpty()) {
        byArch.computeIfAbsent(shown(arm.guest().arch()), k -> new ArrayList<>()).add(shown(arm.name()));
      }
    }
    if (byArch.size() > 1) {
      problems.add("arms: kernels of different architectures " + byArch + " cannot be paired; build"
          + " every arm's kernel for one architecture (compare architectures in separate experiments)");
      return;
    }
    String selected = spec.selector().arch();
    if (byArch.size() == 1 && !selected.isEmpty() && !byArch.containsKey(selected)) {
      String arch = byArch.keySet().iterator().next();
      problems.add("selector.arch: " + selected + " hosts were selected but the arms' kernels are " + arch
          + "; select arch " + arch + " (or none), or pass " + selected + " kernels");
    }
  }

  static final int MAX_WORKLOAD_TIMEOUT_S = 86_400;

  private static void checkWorkload(WorkloadSpec w, List<String> problems) {
    if (w.files() == null || !SHA256.matcher(w.files().sha256()).matches()) {
      problems.add("benchmark.workload.files.sha256: '" + shown((w.files() == null ? "" : w.files().sha256()))
          + "' is not a lower-case hex SHA-256; pack the workload directory first (abfleet ab and"
          + " nightly do it for workload.files in fleet.yaml or a spec file)");
    }
    ArtifactChecks.check("benchmark.workload.files", w.files(), problems);
    if (w.run().isBlank()) {
      problems.add("benchmark.workload.run: empty; give the command the guest runs, e.g. \"sh run.sh\"");
    }
    if (!w.output().equals("jsonl") && !w.output().equals("gobench")) {
      problems.add("benchmark.workload.output: unknown format '" + shown(w.output()) + "'; expected jsonl or gobench");
    }
    if (w.timeoutS() < 0 || w.timeoutS() > MAX_WORKLOAD_TIMEOUT_S) {
      problems.add("benchmark.workload.timeout_s: " + w.timeoutS() + " is out of range; use 1.."
          + MAX_WORKLOAD_TIMEOUT_S + " (0 = " + WorkloadSpec.DEFAULT_TIMEOUT_S + ")");
    }
  }

  private static void checkSelector(HostSelector selector, List<String> problems) {
    if (!HYPERVISORS.contains(selector.hypervisor())) {
      problems.add("selector.hypervisor: unknown hypervisor '" + shown(selector.hypervisor())
          + "'; expected one of qemu, vz, sim");
    }
    checkHypervisors(selector, problems);
    if (!selector.arch().isEmpty() && !ARCHES.contains(selector.arch())) {
      problems.add("selector.arch: unknown architecture '" + shown(selector.arch())
          + "'; expected x86_64 or aarch64 (empty = any)");
    }
    new TreeMap<>(selector.labels()).forEach((key, value) -> {
      if (!LABEL.matcher(key).matches() || !LABEL.matcher(value).matches()) {
        problems.add("selector.labels: '" + shown(key + "=" + value) + "' is not a valid label; keys and"
            + " values use 1 to 63 of [A-Za-z0-9_./-]");
      }
    });
    if (selector.hosts().size() > MAX_HOSTS) {
      problems.add("selector.hosts: " + selector.hosts().size() + " hosts; list at most " + MAX_HOSTS
          + " or select by labels");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < selector.hosts().size(); i++) {
      String host = selector.hosts().get(i);
      HostNames.check("selector.hosts[" + i + "]", host).ifPresent(problems::add);
      if (!seen.add(host)) {
        problems.add("selector.hosts[" + i + "]: '" + shown(host) + "' is listed twice; list each host once");
      }
    }
  }

  /** Several hypervisors: known, listed once, not sim mixed with real ones. */
  private static void checkHypervisors(HostSelector selector, List<String> problems) {
    List<String> listed = selector.hypervisors();
    if (listed.isEmpty()) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < listed.size(); i++) {
      String h = listed.get(i);
      if (!HYPERVISORS.contains(h)) {
        problems.add("selector.hypervisors[" + i + "]: unknown hypervisor '" + shown(h)
            + "'; expected one of qemu, vz, sim");
      } else if (!seen.add(h)) {
        problems.add("selector.hypervisors[" + i + "]: '" + shown(h) + "' is listed twice; list each"
            + " hypervisor once");
      }
    }
    if (!listed.contains(selector.hypervisor())) {
      problems.add("selector.hypervisor: '" + shown(selector.hypervisor()) + "' is not one of"
          + " selector.hypervisors " + listed + "; leave hypervisor empty when listing hypervisors");
    }
    if (seen.contains("sim") && seen.size() > 1) {
      problems.add("selector.hypervisors: " + listed + " mixes the simulated hypervisor sim with"
          + " real ones; sim boots are never compared with real boots, so list sim alone");
    }
  }

  static final int MAX_CLASS_BY = 4;

  /** class_by: a fact of {@link HostClassKey#FACTS} or label:KEY, each once, at most {@link #MAX_CLASS_BY}. */
  private static void checkClassBy(List<String> classBy, List<String> problems) {
    if (classBy.size() > MAX_CLASS_BY) {
      problems.add("policy.class_by: " + classBy.size() + " dimensions; use at most "
          + MAX_CLASS_BY);
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < classBy.size(); i++) {
      String dim = classBy.get(i);
      String at = "policy.class_by[" + i + "]: ";
      if (dim.equals("hypervisor") || dim.equals("accelerator")) {
        problems.add(at + "'" + shown(dim) + "' always separates host classes; remove it");
      } else if (dim.startsWith(HostClassKey.LABEL)) {
        String key = dim.substring(HostClassKey.LABEL.length());
        if (!LABEL.matcher(key).matches()) {
          problems.add(at + "'" + shown(dim) + "' does not name a label; use label:KEY with KEY of 1 to"
              + " 63 of [A-Za-z0-9_./-], e.g. label:cpu");
        }
      } else if (!HostClassKey.FACTS.contains(dim)) {
        problems.add(at + "unknown dimension '" + shown(dim) + "'; expected cpu_model, arch, host_kernel,"
            + " hypervisor_version (qemu_version) or label:KEY (e.g. label:cpu)");
      }
      if (!seen.add(dim)) {
        problems.add(at + "'" + shown(dim) + "' is listed twice; list each dimension once");
      }
    }
  }

  private static void checkConsolePatterns(List<String> patterns, List<String> problems) {
    for (int i = 0; i < patterns.size(); i++) {
      String p = patterns.get(i);
      if (p.isBlank()) {
        problems.add("console_patterns[" + i + "]: empty; give a regular expression such as 'WARNING:', or none for"
            + " the default list");
        continue;
      }
      try {
        Pattern.compile(p);
      } catch (java.util.regex.PatternSyntaxException e) {
        problems.add("console_patterns[" + i + "]: '" + shown(p) + "' is not a valid regular expression ("
            + e.getDescription() + "); escape special characters, e.g. 'Oops\\['");
      }
    }
  }

  private static String shown(String value) {
    return SpecLimits.shown(String.valueOf(value));
  }

  private static void checkArms(List<ArmSpec> arms, List<String> problems) {
    long baselines = arms.stream().filter(a -> a.role() == ArmSpec.Role.BASELINE).count();
    long candidates = arms.stream().filter(a -> a.role() == ArmSpec.Role.CANDIDATE).count();
    long ceilings = arms.stream().filter(a -> a.role() == ArmSpec.Role.CEILING).count();
    if (baselines != 1 || candidates < 1) {
      problems.add("arms: need exactly one arm with role baseline and at least one candidate; got "
          + baselines + " baseline and " + candidates + " candidate arms");
    }
    if (ceilings > 1) {
      problems.add("arms: at most one arm with role ceiling; got " + ceilings);
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < arms.size(); i++) {
      ArmSpec arm = arms.get(i);
      String at = "arms[" + i + "]";
      if (arm.role() == null) {
        problems.add(at + ".role: missing or unknown; use baseline, candidate or ceiling");
      }
      Optional<String> badName = BenchmarkChecks.armName(arm.name());
      if (badName.isPresent()) {
        problems.add(at + ".name: " + badName.get());
      } else if (!names.add(arm.name())) {
        problems.add(at + ".name: '" + shown(arm.name()) + "' is used twice; give each arm its own name");
      }
      if (arm.kernel() == null || !SHA256.matcher(arm.kernel().sha256()).matches()) {
        problems.add(at + ".kernel.sha256: '" + shown((arm.kernel() == null ? "" : arm.kernel().sha256()))
            + "' is not a lower-case hex SHA-256; pass the output of sha256sum");
      }
      ArtifactChecks.check(at + ".kernel", arm.kernel(), problems);
      ArtifactChecks.check(at + ".initrd", arm.initrd(), problems);
      ArtifactChecks.check(at + ".guest_image", arm.guest().guestImage(), problems);
      ArtifactChecks.check(at + ".modules_tree", arm.guest().modulesTree(), problems);
      BuildChecks.check(at + ".build", arm.build(), problems);
      if (arm.initrd() != null && !SHA256.matcher(arm.initrd().sha256()).matches()) {
        problems.add(at + ".initrd.sha256: '" + shown(arm.initrd().sha256())
            + "' is not a lower-case hex SHA-256; leave it empty for the built-in initramfs");
      }
      String arch = arm.guest().arch();
      if (!arch.isEmpty() && !ARCHES.contains(arch)) {
        problems.add(at + ".arch: unknown architecture '" + shown(arch) + "'; expected x86_64 or aarch64"
            + " (empty = read from the kernel)");
      }
      ArtifactRef image = arm.guest().guestImage();
      if (image != null && !SHA256.matcher(image.sha256()).matches()) {
        problems.add(at + ".guest_image.sha256: '" + shown(image.sha256())
            + "' is not a lower-case hex SHA-256; leave it empty and the worker builds the image");
      }
      ArtifactRef tree = arm.guest().modulesTree();
      if (tree != null && !SHA256.matcher(tree.sha256()).matches()) {
        problems.add(at + ".modules_tree.sha256: '" + shown(tree.sha256())
            + "' is not a lower-case hex SHA-256; leave it empty to use modules_dir");
      }
      if (arm.vcpus() < 0 || arm.memoryMib() < 0) {
        problems.add(at + ".shape: vcpus and memory_mib must not be negative (0 = default)");
      }
    }
  }
}
