package dev.abfleet.config;

import dev.abfleet.stats.DesignCheck;

import dev.abfleet.model.Limits;

import dev.abfleet.model.ControllerDefaults;
import dev.abfleet.model.Harnesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Loads and validates fleet.yaml. Any problem is a {@link Problem} whose message starts with
 * {@code file:line:} and says what to write instead.
 */
public final class FleetConfigLoader {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
  /** Benchmark volume: the guest's tmpfs, or a host directory shared in. */
  static final List<String> VOLUMES = dev.abfleet.model.BenchmarkChecks.VOLUMES;
  static final List<String> CACHES = dev.abfleet.model.BenchmarkChecks.CACHES;
  static final int MAX_FILES = 1_000_000;
  /** fleetbench's limits: --threads, --seq-size (MiB), --file-size (bytes). */
  static final int MAX_THREADS = 256;
  static final int MAX_SEQ_SIZE_MIB = 4096;
  static final int MAX_FILE_SIZE = 16 * 1024 * 1024;
  static final int MAX_VCPUS = 512;
  static final int MIN_MEMORY_MIB = 64;
  static final int MAX_MEMORY_MIB = 1 << 20;

  private FleetConfigLoader() {}

  /** The fleet.yaml shipped inside abfleet, used when no file is given. */
  public static FleetConfig embeddedDefault() {
    try (var in = FleetConfigLoader.class.getResourceAsStream("/fleet.yaml")) {
      if (in == null) {
        throw new IllegalStateException("fleet.yaml missing from the abfleet jar");
      }
      return parse("fleet.yaml (built-in)", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("reading built-in fleet.yaml", e);
    }
  }

  public static FleetConfig load(Path file) {
    return parse(file.toString(), YamlDocuments.read(file, "fleet.yaml", "--config"),
        file.toAbsolutePath().getParent());
  }

  /** Relative paths in the text (workload files) are resolved against the current directory. */
  public static FleetConfig parse(String label, String text) {
    return parse(label, text, Path.of("").toAbsolutePath());
  }

  /** @param dir relative paths in the text (workload files) are resolved against it */
  public static FleetConfig parse(String label, String text, Path dir) {
    Optional<YamlNode> root = YamlDocuments.compose(label, text, "fleet.yaml needs at most 4");
    if (root.isEmpty()) {
      return fromRoot(Map.of(), label, dir);
    }
    return fromRoot(root.get().mapping(Set.of("controller", "policy", "vm", "benchmarks", "default_benchmark",
        "schedules")), label, dir);
  }

  private static FleetConfig fromRoot(Map<String, YamlNode> top, String label, Path dir) {
    FleetConfig.Controller controller = controller(top.get("controller"), dir);
    FleetConfig.Policy policy = policy(top.get("policy"));
    FleetConfig.Vm vm = vm(top.get("vm"));
    Map<String, FleetConfig.Benchmark> benchmarks = new LinkedHashMap<>();
    if (top.containsKey("benchmarks")) {
      for (var e : top.get("benchmarks").mapping(null).entrySet()) {
        if (!NAME.matcher(e.getKey()).matches()) {
          throw e.getValue().problem("benchmark name '" + e.getKey() + "' may only use letters, digits, '_', '.', '-'");
        }
        benchmarks.put(e.getKey(), benchmark(e.getKey(), e.getValue(), dir));
      }
    }
    boolean builtIn = benchmarks.isEmpty();
    if (builtIn) {
      List<String> all = Harnesses.metrics(Harnesses.FLEETBENCH).stream().map(Harnesses.MetricDef::name).toList();
      benchmarks.put("default", new FleetConfig.Benchmark("default", Harnesses.FLEETBENCH, all, all, 5, 200, 1));
    }
    String defaultBenchmark = benchmarks.keySet().iterator().next();
    if (top.containsKey("default_benchmark")) {
      defaultBenchmark = defaultBenchmark(top.get("default_benchmark"), benchmarks.keySet(), builtIn);
    }
    List<FleetConfig.Schedule> schedules = top.containsKey("schedules")
        ? FleetConfigSchedules.parse(top.get("schedules"), benchmarks.keySet(), policy.pairs())
        : List.of();
    for (FleetConfig.Schedule s : schedules) {
      checkDesign(label, s, benchmarks.get(s.benchmark() == null ? defaultBenchmark : s.benchmark()), policy);
    }
    return new FleetConfig(controller, policy, vm, Map.copyOf(benchmarks), defaultBenchmark, schedules);
  }

  /**
   * An A/B schedule whose pairs cannot reach any verdict ({@link DesignCheck}) is refused at load, naming the
   * schedule and its pairs key; an A/A schedule only measures noise and is not checked.
   */
  private static void checkDesign(String label, FleetConfig.Schedule s, FleetConfig.Benchmark b,
      FleetConfig.Policy policy) {
    if (!FleetConfig.Schedule.AB.equals(s.kind()) || b == null) {
      return;
    }
    List<String> gating = b.gating().isEmpty() ? b.metrics() : b.gating();
    DesignCheck.Result r = DesignCheck.check(DesignCheck.Design.fixed(s.pairs(), policy.alpha(), gating.size(), 1,
        gating.size() < b.metrics().size()));
    if (r.outcome() == DesignCheck.Outcome.REFUSE) {
      throw new Problem(label + ":" + s.line() + ": schedule " + s.name() + ": "
          + r.refusal("pairs:", "looks:"));
    }
  }

  /** default_benchmark names a benchmark this file defines (or the built-in one when it defines none). */
  private static String defaultBenchmark(YamlNode n, java.util.Set<String> names, boolean builtIn) {
    String name = n.string();
    if (names.contains(name)) {
      return name;
    }
    String shown = dev.abfleet.model.BenchmarkChecks.quote(name);
    throw n.problem("default_benchmark '" + shown + "' is not defined here; "
        + (builtIn ? "this file defines no benchmarks (only the built-in 'default'), so define it under benchmarks:,"
            + " e.g. benchmarks: {" + shown + ": {metrics: [metadata_stat]}}, or drop default_benchmark"
            : "define it under benchmarks:, or name one of " + String.join(", ", names)));
  }

  private static FleetConfig.Controller controller(YamlNode n, Path dir) {
    String host = "127.0.0.1";
    int grpcPort = 7070;
    int clusterPort = 2552;
    List<String> seeds = List.of();
    int heartbeat = 1000;
    FleetConfig.Store store = new FleetConfig.Store("h2", "", "", "", "",
        ControllerDefaults.SNAPSHOT_EVERY);
    FleetConfig.Artifacts artifacts = FleetConfig.Artifacts.DEFAULT;
    FleetConfig.Formation formation = FleetConfig.Formation.SEED_NODES;
    FleetConfig.ControllerSecurity security = FleetConfig.ControllerSecurity.NONE;
    Limits limits = Limits.defaults();
    int metricsPort = ControllerDefaults.METRICS_PORT;
    int dashboardPort = 0;
    if (n != null) {
      Set<String> keys = new java.util.HashSet<>(Set.of("grpc_host", "grpc_port", "cluster_port", "seed_nodes",
          "heartbeat_interval_ms", "store", "artifacts", "limits", "metrics_port",
          "dashboard_port"));
      keys.addAll(FormationConfig.KEYS);
      keys.addAll(SecurityConfig.KEYS);
      Map<String, YamlNode> m = n.mapping(keys);
      formation = FormationConfig.parse(m);
      security = SecurityConfig.parse(m, dir);
      if (m.containsKey("grpc_host")) host = m.get("grpc_host").string();
      if (m.containsKey("grpc_port")) grpcPort = m.get("grpc_port").integer(0, 65535);
      if (m.containsKey("cluster_port")) clusterPort = m.get("cluster_port").integer(0, 65535);
      if (m.containsKey("seed_nodes")) seeds = m.get("seed_nodes").strings();
      if (m.containsKey("heartbeat_interval_ms")) heartbeat = m.get("heartbeat_interval_ms").integer(100, 60_000);
      if (m.containsKey("store")) store = store(m.get("store"));
      if (m.containsKey("artifacts")) artifacts = artifacts(m.get("artifacts"));
      if (m.containsKey("limits")) limits = limits(m.get("limits"));
      if (m.containsKey("metrics_port")) metricsPort = m.get("metrics_port").integer(0, 65535);
      if (m.containsKey("dashboard_port")) dashboardPort = m.get("dashboard_port").integer(0, 65535);
    }
    return new FleetConfig.Controller(host, grpcPort, clusterPort, seeds, heartbeat, store, artifacts, formation,
        security, limits, metricsPort, dashboardPort);
  }

  private static FleetConfig.Artifacts artifacts(YamlNode n) {
    Map<String, YamlNode> m = n.mapping(Set.of("path", "max_bytes", "max_upload_bytes"));
    return new FleetConfig.Artifacts(m.containsKey("path") ? m.get("path").string() : "",
        m.containsKey("max_bytes") ? m.get("max_bytes").bytes() : FleetConfig.Artifacts.DEFAULT.maxBytes(),
        m.containsKey("max_upload_bytes") ? m.get("max_upload_bytes").bytes()
            : FleetConfig.Artifacts.DEFAULT.maxUploadBytes());
  }

  private static Limits limits(YamlNode n) {
    Map<String, YamlNode> m = n.mapping(Set.of("calls_per_second", "burst", "worker_messages_per_second",
        "max_concurrent_calls_per_connection"));
    Limits d = Limits.defaults();
    return new Limits(
        m.containsKey("calls_per_second") ? m.get("calls_per_second").integer(1, 1_000_000) : d.callsPerSecond(),
        m.containsKey("burst") ? m.get("burst").integer(1, 1_000_000) : d.burst(),
        m.containsKey("worker_messages_per_second") ? m.get("worker_messages_per_second").integer(1, 1_000_000)
            : d.workerMessagesPerSecond(),
        m.containsKey("max_concurrent_calls_per_connection")
            ? m.get("max_concurrent_calls_per_connection").integer(1, 100_000) : d.maxConcurrentCallsPerConnection());
  }

  private static FleetConfig.Store store(YamlNode n) {
    Map<String, YamlNode> m = n.mapping(Set.of("kind", "path", "url", "user", "password_env", "snapshot_every"));
    String kind = m.containsKey("kind") ? m.get("kind").oneOf(List.of("h2", "postgres")) : "h2";
    String path = m.containsKey("path") ? m.get("path").string() : "";
    String url = m.containsKey("url") ? m.get("url").string() : "";
    String user = m.containsKey("user") ? m.get("user").string() : "";
    String passwordEnv = m.containsKey("password_env") ? m.get("password_env").string() : "";
    int snapshotEvery = m.containsKey("snapshot_every") ? m.get("snapshot_every").integer(0, 1_000_000)
        : ControllerDefaults.SNAPSHOT_EVERY;
    if (kind.equals("postgres") && !url.startsWith("jdbc:postgresql:")) {
      throw n.problem("controller.store.url must be a jdbc:postgresql:// URL when kind is postgres, e.g. jdbc:postgresql://db:5432/abfleet");
    }
    if (kind.equals("h2") && !url.isEmpty()) {
      throw m.get("url").problem("controller.store.url is only for kind postgres; for h2 set path (a directory)");
    }
    return new FleetConfig.Store(kind, path, url, user, passwordEnv, snapshotEvery);
  }

  private static FleetConfig.Policy policy(YamlNode n) {
    double threshold = dev.abfleet.stats.Policy.DEFAULT_NOISE_THRESHOLD;
    double alpha = dev.abfleet.stats.Policy.DEFAULT_ALPHA;
    int pairs = 8;
    int timeout = 0; // adaptive: the controller sizes each boot's timeout to its work
    List<Integer> looks = List.of();
    boolean warmupBoot = false;
    double futilityEffect = dev.abfleet.stats.Policy.DEFAULT_FUTILITY_EFFECT;
    double futilityBeta = dev.abfleet.stats.Policy.DEFAULT_FUTILITY_BETA;
    FleetConfig.HostQuiet hostQuiet = null;
    if (n != null) {
      Map<String, YamlNode> m = n.mapping(Set.of("noise_threshold", "alpha", "pairs", "boot_timeout_s", "looks",
          "warmup_boot", "futility_effect", "futility_beta", "host_quiet"));
      if (m.containsKey("host_quiet")) hostQuiet = hostQuiet(m.get("host_quiet"));
      if (m.containsKey("futility_effect")) {
        YamlNode f = m.get("futility_effect");
        futilityEffect = f.string().trim().matches("0(\\.0*)?") ? 0 : f.number(0, 0.5);
      }
      if (m.containsKey("futility_beta")) futilityBeta = m.get("futility_beta").number(0.01, 0.4);
      if (m.containsKey("warmup_boot")) warmupBoot = m.get("warmup_boot").oneOf(List.of("true", "false")).equals("true");
      if (m.containsKey("looks")) looks = looks(m.get("looks"));
      if (m.containsKey("noise_threshold")) threshold = m.get("noise_threshold").number(PolicyRanges.THRESHOLD_MIN, PolicyRanges.THRESHOLD_MAX);
      if (m.containsKey("alpha")) alpha = m.get("alpha").number(PolicyRanges.ALPHA_MIN, PolicyRanges.ALPHA_MAX);
      if (m.containsKey("pairs")) pairs = m.get("pairs").integer(1, 10_000);
      if (m.containsKey("boot_timeout_s")) timeout = m.get("boot_timeout_s").integer(5, 86_400);
    }
    if (!looks.isEmpty()) {
      pairs = looks.get(looks.size() - 1);
    }
    return new FleetConfig.Policy(threshold, alpha, pairs, timeout, looks, warmupBoot, futilityEffect,
        futilityBeta, hostQuiet);
  }

  /**
   * policy.host_quiet: {@code off} (or {@code false}) for no policy, else a mapping whose keys are
   * all optional, the defaults of {@link FleetConfig.HostQuiet#DEFAULT}.
   */
  static FleetConfig.HostQuiet hostQuiet(YamlNode n) {
    if (n.scalar()) {
      String off = n.string().trim();
      if (off.equals("off") || off.equals("false")) {
        return FleetConfig.HostQuiet.OFF;
      }
      throw n.problem(n.path() + " is '" + off + "'; expected off (no quiet-host policy) or a mapping such as "
          + "{max_wait_s: 60} (the policy, on by default)");
    }
    FleetConfig.HostQuiet d = FleetConfig.HostQuiet.DEFAULT;
    Map<String, YamlNode> m = n.mapping(Set.of("cpu_some_pct", "max_wait_s", "on_interference",
        "max_reruns_per_pair"));
    double pct = m.containsKey("cpu_some_pct") ? m.get("cpu_some_pct").number(0, 100) : d.cpuSomePct();
    int wait = m.containsKey("max_wait_s") ? m.get("max_wait_s").integer(1, 3600) : d.maxWaitS();
    String on = m.containsKey("on_interference")
        ? m.get("on_interference").oneOf(List.of("rerun", "keep")) : d.onInterference();
    int reruns = m.containsKey("max_reruns_per_pair")
        ? m.get("max_reruns_per_pair").integer(1, 20) : d.maxRerunsPerPair();
    return new FleetConfig.HostQuiet(pct, wait, on, reruns);
  }

  /** Ascending pair counts of at least 2. */
  private static List<Integer> looks(YamlNode n) {
    List<Integer> looks = new java.util.ArrayList<>();
    for (YamlNode item : n.sequence()) {
      int look = item.integer(2, 10_000);
      if (!looks.isEmpty() && look <= looks.get(looks.size() - 1)) {
        throw item.problem("policy.looks must be ascending pair counts, e.g. [8, 16, 24]; " + look
            + " does not come after " + looks.get(looks.size() - 1));
      }
      looks.add(look);
    }
    return List.copyOf(looks);
  }

  private static FleetConfig.Vm vm(YamlNode n) {
    int vcpus = 1;
    int memory = 512;
    boolean pin = false;
    if (n != null) {
      Map<String, YamlNode> m = n.mapping(Set.of("vcpus", "memory_mib", "pin_vcpus"));
      if (m.containsKey("vcpus")) vcpus = m.get("vcpus").integer(1, MAX_VCPUS);
      if (m.containsKey("memory_mib")) memory = m.get("memory_mib").integer(MIN_MEMORY_MIB, MAX_MEMORY_MIB);
      if (m.containsKey("pin_vcpus")) pin = m.get("pin_vcpus").bool();
    }
    return new FleetConfig.Vm(vcpus, memory, pin);
  }

  private static FleetConfig.Benchmark benchmark(String name, YamlNode n, Path dir) {
    Map<String, YamlNode> m = n.mapping(Set.of("harness", "metrics", "gating", "iterations", "iteration_ms", "warmup",
        "volume", "files", "cache", "workload", "transport", "ratios", "threads", "seq_size",
        "file_size"));
    String transport = transport(n, m);
    List<dev.abfleet.model.CounterRatio> ratios = m.containsKey("ratios") ? RatioConfig.parse(m.get("ratios"))
        : List.of();
    if (m.containsKey("workload")) {
      return workloadBenchmark(name, n, m, dir).withRatios(ratios);
    }
    String harness = m.containsKey("harness") ? m.get("harness").oneOf(Harnesses.names()) : Harnesses.FLEETBENCH;
    List<String> all = Harnesses.metrics(harness).stream().map(Harnesses.MetricDef::name).toList();
    List<String> metrics = m.containsKey("metrics") ? checked(m.get("metrics"), harness) : all;
    List<String> gating = m.containsKey("gating") ? checked(m.get("gating"), harness) : metrics;
    for (String g : gating) {
      dev.abfleet.model.BenchmarkChecks.gating(harness, metrics, g).ifPresent(msg -> {
        throw m.get("gating").problem(msg);
      });
    }
    int iterations = m.containsKey("iterations") ? m.get("iterations").integer(1, 1000) : 5;
    int iterationMs = m.containsKey("iteration_ms") ? m.get("iteration_ms").integer(10, 600_000) : 200;
    int warmup = m.containsKey("warmup") ? m.get("warmup").integer(0, 100) : 1;
    String volume = m.containsKey("volume") ? m.get("volume").oneOf(VOLUMES) : "guest";
    int files = m.containsKey("files") ? m.get("files").integer(1, MAX_FILES) : 0;
    String cache = m.containsKey("cache") ? m.get("cache").oneOf(CACHES) : "warm";
    FleetConfig.Load load = new FleetConfig.Load(
        m.containsKey("threads") ? m.get("threads").integer(0, MAX_THREADS) : 0,
        m.containsKey("seq_size") ? m.get("seq_size").integer(1, MAX_SEQ_SIZE_MIB) : 0,
        m.containsKey("file_size") ? m.get("file_size").integer(0, MAX_FILE_SIZE) : 0);
    return new FleetConfig.Benchmark(name, harness, metrics, gating, iterations, iterationMs, warmup, volume, files,
        cache, null, transport, ratios, load);
  }

  /** A benchmark running a user workload: no fleetbench metrics or settings, gating by the workload's names. */
  private static FleetConfig.Benchmark workloadBenchmark(String name, YamlNode n, Map<String, YamlNode> m, Path dir) {
    if (m.containsKey("harness")) {
      throw m.get("harness").problem(n.path() + " has both workload and harness; a workload replaces the harness:"
          + " drop harness");
    }
    if (m.containsKey("metrics")) {
      throw m.get("metrics").problem(n.path() + " has both workload and metrics; metrics lists fleetbench metrics and"
          + " a workload reports its own: drop metrics (gating may name the workload's metrics)");
    }
    for (String key : WorkloadConfig.FLEETBENCH_ONLY) {
      if (m.containsKey(key)) {
        throw m.get(key).problem(n.path() + "." + key + " is a fleetbench setting; a workload runs its command once"
            + " per boot: drop " + key);
      }
    }
    FleetConfig.Workload w = WorkloadConfig.parse(m.get("workload"), dir);
    List<String> gating = m.containsKey("gating") ? WorkloadConfig.metricNames(m.get("gating")) : List.of();
    String volume = m.containsKey("volume") ? m.get("volume").oneOf(VOLUMES) : "guest";
    return new FleetConfig.Benchmark(name, Harnesses.FLEETBENCH, List.of(), gating, 0, 0, 0, volume, 0, "warm", w,
        transport(n, m), List.of(), FleetConfig.Load.DEFAULT);
  }

  /** {@code transport:} of a benchmark: virtiofs, 9p or auto, and only with volume: host. */
  private static String transport(YamlNode n, Map<String, YamlNode> m) {
    if (!m.containsKey("transport")) {
      return "";
    }
    String t = m.get("transport").oneOf(SpecFile.Volume.TRANSPORTS);
    if (!m.containsKey("volume") || !m.get("volume").string().equals("host")) {
      throw m.get("transport").problem(n.path() + ".transport is how a host volume is shared; add volume: host, or"
          + " drop transport");
    }
    return t;
  }

  private static List<String> checked(YamlNode list, String harness) {
    List<YamlNode> items = list.sequence();
    if (items.isEmpty()) {
      throw list.problem(list.path() + " is empty; list at least one metric");
    }
    for (YamlNode item : items) {
      dev.abfleet.model.BenchmarkChecks.metric(harness, item.string()).ifPresent(msg -> {
        throw item.problem(msg);
      });
    }
    return items.stream().map(YamlNode::string).toList();
  }
}
