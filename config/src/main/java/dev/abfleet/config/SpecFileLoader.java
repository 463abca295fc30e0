package dev.abfleet.config;

import dev.abfleet.model.BenchmarkChecks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Loads and validates an experiment spec file. Any problem is a {@link Problem} whose message
 * starts with {@code file:line:} and says what to write instead (exit 2). Benchmark and metric
 * names are checked against the fleet.yaml in use. A {@code workload:} runs on the benchmark's
 * volume instead of its metrics; {@code metrics:} then names metrics the workload reports.
 */
public final class SpecFileLoader {
  private static final List<String> ROLES = List.of("baseline", "candidate", "ceiling");
  private static final Set<String> TOP = Set.of("benchmark", "metrics", "iterations", "pairs", "looks", "threshold",
      "alpha", "seed", "boot_timeout", "warmup_boot", "vm", "arms", "workload", "files", "volume", "ratios",
      "threads", "seq_size", "file_size");
  private static final Set<String> ARM = Set.of("name", "role", "kernel", "build", "cmdline", "modules",
      "modules_dir", "volume_options", "vm", "volume");
  private static final Set<String> VM = Set.of("vcpus", "memory_mib", "pin_vcpus");
  private static final Set<String> VOLUME = Set.of("transport", "cache");

  private SpecFileLoader() {}

  public static SpecFile load(Path file, FleetConfig config) {
    String text = YamlDocuments.read(file, "spec file", "--spec");
    Path dir = file.toAbsolutePath().getParent();
    return parse(file.toString(), text, dir, config);
  }

  /** @param dir relative kernel paths are resolved against it */
  public static SpecFile parse(String label, String text, Path dir, FleetConfig config) {
    Optional<YamlNode> root = YamlDocuments.compose(label, text, "a spec file needs at most 4");
    if (root.isEmpty()) {
      throw new Problem(label + ":1: the spec file is empty; it needs at least arms: (a baseline and a candidate)");
    }
    Map<String, YamlNode> top = root.get().mapping(TOP);
    String benchmark = top.containsKey("benchmark")
        ? top.get("benchmark").oneOf(List.copyOf(new java.util.TreeSet<>(config.benchmarks().keySet()))) : null;
    String harness = config.benchmark(benchmark).harness();
    FleetConfig.Workload workload = top.containsKey("workload") ? WorkloadConfig.parse(top.get("workload"), dir) : null;
    boolean runsWorkload = workload != null || config.benchmark(benchmark).workload() != null;
    List<String> metrics = !top.containsKey("metrics") ? null
        : runsWorkload ? WorkloadConfig.metricNames(top.get("metrics")) : metrics(top.get("metrics"), harness);
    if (runsWorkload && top.containsKey("iterations")) {
      throw top.get("iterations").problem("iterations is a fleetbench setting; the workload runs its command once per"
          + " boot: drop iterations");
    }
    Integer iterations = top.containsKey("iterations") ? top.get("iterations").integer(1, 1000) : null;
    if (runsWorkload && top.containsKey("files")) {
      throw top.get("files").problem("files is a fleetbench setting (the find_recursive / rm_rf tree); the workload"
          + " brings its own files: drop files");
    }
    Integer files = top.containsKey("files") ? top.get("files").integer(1, FleetConfigLoader.MAX_FILES) : null;
    SpecFile.Load load = load(top, runsWorkload);
    Integer pairs = top.containsKey("pairs") ? top.get("pairs").integer(1, 10_000) : null;
    List<Integer> looks = top.containsKey("looks") ? looks(top.get("looks")) : null;
    if (pairs != null && looks != null) {
      throw top.get("looks").problem("pairs and looks both given; the last look is the most pairs run,"
          + " drop pairs");
    }
    Double threshold = top.containsKey("threshold") ? top.get("threshold").number(PolicyRanges.THRESHOLD_MIN, PolicyRanges.THRESHOLD_MAX) : null;
    Double alpha = top.containsKey("alpha") ? top.get("alpha").number(PolicyRanges.ALPHA_MIN, PolicyRanges.ALPHA_MAX) : null;
    Long seed = top.containsKey("seed") ? seed(top.get("seed")) : null;
    Integer bootTimeout = top.containsKey("boot_timeout") ? top.get("boot_timeout").integer(5, 86_400) : null;
    Boolean warmupBoot = top.containsKey("warmup_boot") ? top.get("warmup_boot").bool() : null;
    SpecFile.Vm vm = top.containsKey("vm") ? vm(top.get("vm")) : SpecFile.Vm.UNSET;
    SpecFile.Volume volume = top.containsKey("volume") ? volume(top.get("volume")) : SpecFile.Volume.UNSET;
    if (!top.containsKey("arms")) {
      // One line, as every message: the example in YAML's flow style.
      throw root.get().problem("no arms; add arms: with a baseline and at least one candidate, e.g. arms:"
          + " [{name: stock, role: baseline, kernel: /boot/vmlinuz},"
          + " {name: patched, role: candidate, kernel: /srv/vmlinuz-patched}]");
    }
    List<SpecFile.Arm> arms = arms(top.get("arms"), dir);
    checkHostVolume(top, arms, config, benchmark);
    List<dev.abfleet.model.CounterRatio> ratios = top.containsKey("ratios") ? RatioConfig.parse(top.get("ratios"))
        : null;
    return new SpecFile(benchmark, metrics, iterations, pairs, looks, threshold, alpha, seed, bootTimeout, warmupBoot,
        vm, arms, workload, files, volume, ratios, load);
  }

  /** threads, seq_size and file_size: fleetbench settings, in fleetbench's ranges. */
  private static SpecFile.Load load(Map<String, YamlNode> top, boolean runsWorkload) {
    for (String key : List.of("threads", "seq_size", "file_size")) {
      if (runsWorkload && top.containsKey(key)) {
        throw top.get(key).problem(key + " is a fleetbench setting; the workload runs its own command: drop " + key);
      }
    }
    return new SpecFile.Load(
        top.containsKey("threads") ? top.get("threads").integer(0, FleetConfigLoader.MAX_THREADS) : null,
        top.containsKey("seq_size") ? top.get("seq_size").integer(1, FleetConfigLoader.MAX_SEQ_SIZE_MIB) : null,
        top.containsKey("file_size") ? top.get("file_size").integer(0, FleetConfigLoader.MAX_FILE_SIZE) : null);
  }

  private static List<SpecFile.Arm> arms(YamlNode list, Path dir) {
    List<SpecFile.Arm> arms = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (YamlNode item : list.sequence()) {
      SpecFile.Arm arm = arm(item, dir);
      if (!names.add(arm.name())) {
        throw item.problem("two arms are named '" + arm.name() + "'; give the arms different names");
      }
      long sameRole = arms.stream().filter(a -> a.role().equals(arm.role())).count();
      if (sameRole > 0 && !arm.role().equals("candidate")) {
        throw item.problem("a second " + arm.role() + " arm ('" + arm.name() + "'); an experiment has one "
            + arm.role() + ", make the others candidates");
      }
      arms.add(arm);
    }
    for (String role : List.of("baseline", "candidate")) {
      if (arms.stream().noneMatch(a -> a.role().equals(role))) {
        throw list.problem("arms has no " + role + "; add an arm with role: " + role);
      }
    }
    return arms;
  }

  private static SpecFile.Arm arm(YamlNode n, Path dir) {
    Map<String, YamlNode> m = n.mapping(ARM);
    for (String required : List.of("name", "role")) {
      if (!m.containsKey(required)) {
        throw n.problem(n.path() + " has no " + required + "; every arm needs name, role and kernel (or build)");
      }
    }
    if (m.containsKey("kernel") == m.containsKey("build")) {
      throw n.problem(n.path() + (m.containsKey("kernel") ? " has both kernel and build; give one: kernel names an"
          + " image, build: {source, patches, config} builds one" : " has no kernel; give kernel: (an image) or"
          + " build: {source: /usr/src/linux-source-6.1.tar.xz, config: abfleet-minimal}"));
    }
    String name = m.get("name").string();
    BenchmarkChecks.armName(name).ifPresent(msg -> {
      throw m.get("name").problem(n.path() + ".name " + msg);
    });
    String role = m.get("role").oneOf(ROLES);
    Path kernel = null;
    SpecFile.Build build = null;
    if (m.containsKey("build")) {
      build = SpecBuildLoader.build(m.get("build"), dir);
    } else {
      String kernelText = m.get("kernel").string();
      if (kernelText.isBlank()) {
        throw m.get("kernel").problem(n.path() + ".kernel is empty; give the path of a kernel image");
      }
      kernel = dir == null ? Path.of(kernelText) : dir.resolve(kernelText).normalize();
    }
    String cmdline = m.containsKey("cmdline") ? m.get("cmdline").string() : "";
    if (cmdline.indexOf('\n') >= 0 || cmdline.indexOf('\0') >= 0) {
      throw m.get("cmdline").problem(n.path() + ".cmdline may not contain newlines; write it on one line");
    }
    List<String> modules = m.containsKey("modules") ? modules(m.get("modules")) : List.of();
    String modulesDir = m.containsKey("modules_dir") ? m.get("modules_dir").string() : "";
    String volumeOptions = m.containsKey("volume_options") ? volumeOptions(m.get("volume_options")) : "";
    SpecFile.Vm vm = m.containsKey("vm") ? vm(m.get("vm")) : SpecFile.Vm.UNSET;
    SpecFile.Volume volume = m.containsKey("volume") ? volume(m.get("volume")) : SpecFile.Volume.UNSET;
    return new SpecFile.Arm(name, role, kernel, cmdline.trim(), modules, modulesDir, volumeOptions, vm,
        n.where(), build, volume);
  }

  private static List<String> modules(YamlNode list) {
    List<String> out = new ArrayList<>();
    for (YamlNode item : list.sequence()) {
      String module = item.string();
      BenchmarkChecks.module(module).ifPresent(msg -> {
        throw item.problem(item.path() + " " + msg);
      });
      out.add(module);
    }
    return out;
  }

  /** Comma-separated mount options, e.g. "cache=loose,msize=262144"; no spaces or newlines. */
  private static String volumeOptions(YamlNode n) {
    String options = n.string().trim();
    if (!options.matches("[A-Za-z0-9_.=:,/+-]*")) {
      throw n.problem(n.path() + " '" + options + "' is not a list of mount options; write them comma-separated"
          + " without spaces, e.g. cache=loose");
    }
    return options;
  }

  /** {@code volume: {transport: virtiofs|9p|auto, cache: auto|always|none}}. */
  private static SpecFile.Volume volume(YamlNode n) {
    Map<String, YamlNode> m = n.mapping(VOLUME);
    if (m.isEmpty()) {
      throw n.problem(n.path() + " is empty; give transport (virtiofs, 9p or auto) and/or cache (auto, always, none),"
          + " e.g. volume: {transport: virtiofs, cache: always}");
    }
    return new SpecFile.Volume(m.containsKey("transport") ? m.get("transport").oneOf(SpecFile.Volume.TRANSPORTS) : null,
        m.containsKey("cache") ? m.get("cache").oneOf(SpecFile.Volume.CACHES) : null);
  }

  /**
   * A volume setting only where the benchmark shares a host volume, and a daemon cache mode only
   * where the transport may be virtio-fs.
   */
  private static void checkHostVolume(Map<String, YamlNode> top, List<SpecFile.Arm> arms, FleetConfig config,
      String benchmark) {
    FleetConfig.Benchmark b = config.benchmark(benchmark);
    SpecFile.Volume fileVolume = top.containsKey("volume") ? volume(top.get("volume")) : SpecFile.Volume.UNSET;
    if (!b.volume().equals("host")) {
      if (top.containsKey("volume")) {
        throw top.get("volume").problem("volume is set but benchmark " + b.name() + " runs on the guest's tmpfs"
            + " (volume: guest); pick a volume: host benchmark (e.g. benchmark: host-volume) or drop volume");
      }
      for (SpecFile.Arm a : arms) {
        if (!a.volume().equals(SpecFile.Volume.UNSET)) {
          throw new Problem(a.where() + ": arm " + a.name() + " sets volume but benchmark " + b.name()
              + " runs on the guest's tmpfs (volume: guest); pick a volume: host benchmark or drop the arm's volume");
        }
      }
      return;
    }
    String benchTransport = b.transport().isEmpty() ? "auto" : b.transport();
    for (SpecFile.Arm a : arms) {
      SpecFile.Volume v = a.volume().over(fileVolume);
      String transport = v.transport() == null ? benchTransport : v.transport();
      if (v.cache() != null && transport.equals("9p")) {
        throw new Problem(a.where() + ": arm " + a.name() + " sets cache " + v.cache() + ", a virtio-fs daemon"
            + " setting, but its volume goes over 9p; set transport: virtiofs, or for 9p use volume_options:"
            + " cache=loose");
      }
    }
  }

  private static SpecFile.Vm vm(YamlNode n) {
    Map<String, YamlNode> m = n.mapping(VM);
    return new SpecFile.Vm(
        m.containsKey("vcpus") ? m.get("vcpus").integer(1, FleetConfigLoader.MAX_VCPUS) : null,
        m.containsKey("memory_mib")
            ? m.get("memory_mib").integer(FleetConfigLoader.MIN_MEMORY_MIB, FleetConfigLoader.MAX_MEMORY_MIB) : null,
        m.containsKey("pin_vcpus") ? m.get("pin_vcpus").bool() : null);
  }

  private static List<String> metrics(YamlNode list, String harness) {
    List<YamlNode> items = list.sequence();
    if (items.isEmpty()) {
      throw list.problem("metrics is empty; list at least one metric, or leave metrics out for all of them");
    }
    for (YamlNode item : items) {
      BenchmarkChecks.metric(harness, item.string()).ifPresent(msg -> {
        throw item.problem(msg);
      });
    }
    return items.stream().map(YamlNode::string).toList();
  }

  private static List<Integer> looks(YamlNode n) {
    List<Integer> looks = new ArrayList<>();
    for (YamlNode item : n.sequence()) {
      int look = item.integer(2, 10_000);
      if (!looks.isEmpty() && look <= looks.get(looks.size() - 1)) {
        throw item.problem("looks must be ascending pair counts, e.g. [8, 16, 24]; " + look
            + " does not come after " + looks.get(looks.size() - 1));
      }
      looks.add(look);
    }
    if (looks.isEmpty()) {
      throw n.problem("looks is empty; give ascending pair counts, e.g. [8, 16, 24], or pairs instead");
    }
    return List.copyOf(looks);
  }

  private static long seed(YamlNode n) {
    String s = n.string();
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      throw n.problem(n.path() + " is '" + s + "'; expected a whole number (a recorded seed replays its order)");
    }
  }
}
