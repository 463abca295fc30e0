package dev.abfleet.config;

import dev.abfleet.model.Limits;

import dev.abfleet.model.ControllerDefaults;

import java.util.List;
import java.util.Map;

/** A validated fleet.yaml. Every field has a default, so an empty file is a valid fleet. */
public record FleetConfig(
    Controller controller, Policy policy, Vm vm, Map<String, Benchmark> benchmarks, String defaultBenchmark,
    List<Schedule> schedules) {

  /**
   * Where the controller listens, keeps its journal and artifacts, and how its nodes find each other.
   *
   * @param security controller.tls, .plaintext and .auth
   * @param limits controller.limits: rate limits per client and per worker stream
   * @param metricsPort controller.metrics_port: HTTP port of /metrics; 0 = off
   * @param dashboardPort controller.dashboard_port: HTTP port of the dashboard; 0 = off
   */
  public record Controller(
      String grpcHost, int grpcPort, int clusterPort, List<String> seedNodes, int heartbeatIntervalMs, Store store,
      Artifacts artifacts, Formation formation, ControllerSecurity security, Limits limits,
      int metricsPort, int dashboardPort) {

    /** As configured, without a dashboard. */
    public Controller(String grpcHost, int grpcPort, int clusterPort, List<String> seedNodes,
        int heartbeatIntervalMs, Store store, Artifacts artifacts, Formation formation,
        ControllerSecurity security, Limits limits, int metricsPort) {
      this(grpcHost, grpcPort, clusterPort, seedNodes, heartbeatIntervalMs, store, artifacts, formation,
          security, limits, metricsPort, 0);
    }

    /** Without TLS, plaintext or auth settings; default limits and metrics port. */
    public Controller(String grpcHost, int grpcPort, int clusterPort, List<String> seedNodes,
        int heartbeatIntervalMs, Store store, Artifacts artifacts, Formation formation) {
      this(grpcHost, grpcPort, clusterPort, seedNodes, heartbeatIntervalMs, store, artifacts, formation,
          ControllerSecurity.NONE, Limits.defaults(), ControllerDefaults.METRICS_PORT);
    }

    /** The default artifact store; seed nodes, no management server. */
    public Controller(String grpcHost, int grpcPort, int clusterPort, List<String> seedNodes, int heartbeatIntervalMs,
        Store store) {
      this(grpcHost, grpcPort, clusterPort, seedNodes, heartbeatIntervalMs, store, Artifacts.DEFAULT,
          Formation.SEED_NODES);
    }
  }

  /**
   * How the controller's gRPC port is protected. {@code ca}, {@code cert}, {@code key}: absolute
   * paths of the TLS PEM files, all empty = no TLS. {@code plaintext}: no TLS, allowed on a
   * loopback grpc_host only. {@code authMode}: "tokens", "none", or empty (tokens with TLS, none
   * with plaintext). {@code bootstrapTokenFile}: empty = $ABFLEET_HOME/controller/operator.token.
   */
  public record ControllerSecurity(String ca, String cert, String key, boolean plaintext,
      String authMode, String bootstrapTokenFile) {
    public static final ControllerSecurity NONE = new ControllerSecurity("", "", "", false, "", "");

    public boolean tls() {
      return !ca.isEmpty();
    }
  }

  /**
   * The controller's artifact store (uploaded kernels, images, boot console logs):
   * {@code path} empty = $ABFLEET_HOME/artifacts; at most {@code maxBytes}, least recently used
   * artifacts evicted beyond; one upload at most {@code maxUploadBytes}.
   */
  public record Artifacts(String path, long maxBytes, long maxUploadBytes) {
    public static final Artifacts DEFAULT = new Artifacts("", 20L << 30, 8L << 30);

    public Artifacts(String path, long maxBytes) {
      this(path, maxBytes, DEFAULT.maxUploadBytes());
    }
  }

  /**
   * How controller nodes form a cluster. discovery "seed-nodes": join {@code seed_nodes} (none:
   * a one-node cluster); "kubernetes-api": Pekko Cluster Bootstrap finds the pods matching
   * {@code podLabelSelector} through the Kubernetes API and forms the cluster once
   * {@code requiredContactPoints} of them answer on their management port.
   *
   * @param managementPort Pekko Management's HTTP port (health checks /alive and /ready,
   *     bootstrap); 0 = no management server
   */
  public record Formation(String discovery, int managementPort, String podLabelSelector, int requiredContactPoints) {
    public static final Formation SEED_NODES = new Formation(FormationConfig.SEED_NODES, 0, "", 1);

    public boolean kubernetesApi() {
      return discovery.equals(FormationConfig.KUBERNETES_API);
    }
  }

  /**
   * The event journal. kind "h2": an embedded file database under {@code path}; kind
   * "postgres": a shared database at {@code url} (password read from the environment variable
   * named by {@code passwordEnv}, never from the file). {@code snapshotEvery}: experiments and
   * the scheduler save a snapshot every this many events, which bounds what a restart replays;
   * 0 = never.
   */
  public record Store(String kind, String path, String url, String user, String passwordEnv,
      int snapshotEvery) {}

  /**
   * Default decision policy of experiments that do not set their own. {@code looks}: ascending
   * pair counts of a sequential design (empty = a fixed design of {@code pairs}).
   * {@code warmupBoot}: the first block on a freshly leased host starts with an uncounted
   * baseline boot. {@code futilityEffect}, {@code futilityBeta}: the futility stop of a
   * sequential design (0 = none; see stats' SequentialPlan). {@code bootTimeoutS}: a fixed
   * per-boot limit; 0 (boot_timeout_s unset) = adaptive, sized by the controller to the
   * benchmark and to the experiment's completed boots. {@code hostQuiet}: the quiet-host policy;
   * null (policy.host_quiet unset) = the controller's default, on with {@link HostQuiet#DEFAULT}'s
   * values; {@link HostQuiet#OFF} (host_quiet: off) = none: boots start at once, interfered ones are
   * pooled and counted.
   */
  public record Policy(double noiseThreshold, double alpha, int pairs, int bootTimeoutS, List<Integer> looks,
      boolean warmupBoot, double futilityEffect, double futilityBeta, HostQuiet hostQuiet) {

    /** Without a quiet-host policy. */
    public Policy(double noiseThreshold, double alpha, int pairs, int bootTimeoutS, List<Integer> looks,
        boolean warmupBoot, double futilityEffect, double futilityBeta) {
      this(noiseThreshold, alpha, pairs, bootTimeoutS, looks, warmupBoot, futilityEffect, futilityBeta, null);
    }

    /** With the default futility stop (5%, beta 10%). */
    public Policy(double noiseThreshold, double alpha, int pairs, int bootTimeoutS, List<Integer> looks,
        boolean warmupBoot) {
      this(noiseThreshold, alpha, pairs, bootTimeoutS, looks, warmupBoot,
          dev.abfleet.stats.Policy.DEFAULT_FUTILITY_EFFECT, dev.abfleet.stats.Policy.DEFAULT_FUTILITY_BETA);
    }

    /** Without warm-up boots. */
    public Policy(double noiseThreshold, double alpha, int pairs, int bootTimeoutS, List<Integer> looks) {
      this(noiseThreshold, alpha, pairs, bootTimeoutS, looks, false);
    }
  }

  /**
   * Quiet-host policy ({@code policy.host_quiet}): before a measured boot the worker waits up to
   * {@code maxWaitS} seconds for the host's CPU "some" pressure to fall to {@code cpuSomePct}
   * percent; a boot whose window exceeded it is interfered and, with {@code onInterference}
   * "rerun", re-run with its pair (at most {@code maxRerunsPerPair} times per pair), or with
   * "keep" pooled and counted; "off" = no policy (no wait, interfered boots pooled and counted).
   */
  public record HostQuiet(double cpuSomePct, int maxWaitS, String onInterference, int maxRerunsPerPair) {
    public static final HostQuiet DEFAULT = new HostQuiet(10, 60, "rerun", 2);
    /** {@code host_quiet: off}: sent as on_interference "off". */
    public static final HostQuiet OFF = new HostQuiet(10, 60, "off", 2);

    /** As sent with every experiment (Policy.host_quiet). */
    public dev.abfleet.proto.fleet.v1.HostQuiet toProto() {
      return dev.abfleet.proto.fleet.v1.HostQuiet.newBuilder().setCpuSomePct(cpuSomePct)
          .setMaxWaitS(maxWaitS).setOnInterference(onInterference)
          .setMaxRerunsPerPair(maxRerunsPerPair).build();
    }
  }

  /**
   * Default VM shape: vCPUs, memory in MiB, and whether each vCPU thread is pinned to a host CPU
   * of its own (only hosts with at least {@code vcpus} CPUs then match).
   */
  public record Vm(int vcpus, int memoryMib, boolean pinVcpus) {
    /** Unpinned. */
    public Vm(int vcpus, int memoryMib) {
      this(vcpus, memoryMib, false);
    }
  }

  /**
   * A benchmark definition: harness, the metrics it measures, which of them gate,
   * measured iterations per boot, iteration length in ms, warm-up iterations per boot.
   *
   * @param volume where the metrics run: "guest" (tmpfs in the guest) or "host" (a fresh
   *     directory on the worker host, shared into the guest)
   * @param files files in the find_recursive / rm_rf tree; 0 = the harness default (2000)
   * @param cache "warm", or "cold" (the guest drops its caches before each iteration)
   * @param workload a user workload run instead of the harness's metrics; null = the harness
   *     (metrics then lists nothing: the workload reports its own, and gating may name them)
   * @param ratios counter ratios the reports show per boot; empty = the default ones
   * @param load the harness's threads and file sizes
   */
  public record Benchmark(
      String name, String harness, List<String> metrics, List<String> gating, int iterations, int iterationMs, int warmup,
      String volume, int files, String cache, Workload workload, String transport,
      List<dev.abfleet.model.CounterRatio> ratios, Load load) {

    public Benchmark {
      transport = transport == null || transport.equals("auto") ? "" : transport;
      ratios = ratios == null ? List.of() : List.copyOf(ratios);
      load = load == null ? Load.DEFAULT : load;
    }

    /** Over the host's preferred transport, with the default counter ratios, threads and sizes. */
    public Benchmark(String name, String harness, List<String> metrics, List<String> gating, int iterations,
        int iterationMs, int warmup, String volume, int files, String cache, Workload workload) {
      this(name, harness, metrics, gating, iterations, iterationMs, warmup, volume, files, cache, workload, "",
          List.of(), Load.DEFAULT);
    }

    /** The built-in harness. */
    public Benchmark(String name, String harness, List<String> metrics, List<String> gating, int iterations,
        int iterationMs, int warmup, String volume, int files, String cache) {
      this(name, harness, metrics, gating, iterations, iterationMs, warmup, volume, files, cache, null);
    }

    /** On the guest's tmpfs, default file count, warm caches. */
    public Benchmark(String name, String harness, List<String> metrics, List<String> gating, int iterations,
        int iterationMs, int warmup) {
      this(name, harness, metrics, gating, iterations, iterationMs, warmup, "guest", 0, "warm");
    }

    /**
     * This benchmark's volume running {@code w} instead: no metrics and no gating of its own
     * (the workload reports what it measures), harness settings left at their defaults.
     */
    public Benchmark withWorkload(Workload w) {
      return new Benchmark(name, harness, List.of(), List.of(), 0, 0, 0, volume, 0, "warm", w, transport, ratios, Load.DEFAULT);
    }

    /** This benchmark with {@code n} files in the find_recursive / rm_rf tree. */
    public Benchmark withFiles(int n) {
      return new Benchmark(name, harness, metrics, gating, iterations, iterationMs, warmup, volume, n, cache, workload,
          transport, ratios, load);
    }

    /** This benchmark's host volume over {@code t} ("virtiofs", "9p", or "auto": the host's preferred). */
    public Benchmark withTransport(String t) {
      return new Benchmark(name, harness, metrics, gating, iterations, iterationMs, warmup, volume, files, cache,
          workload, t, ratios, load);
    }

    /** This benchmark with {@code r} as its counter ratios (empty = the default ones). */
    public Benchmark withRatios(List<dev.abfleet.model.CounterRatio> r) {
      return new Benchmark(name, harness, metrics, gating, iterations, iterationMs, warmup, volume, files, cache,
          workload, transport, r, load);
    }

    /** This benchmark with {@code l} as the harness's threads and file sizes. */
    public Benchmark withLoad(Load l) {
      return new Benchmark(name, harness, metrics, gating, iterations, iterationMs, warmup, volume, files, cache,
          workload, transport, ratios, l);
    }

    /**
     * The proto benchmark with {@code metrics} and {@code iterations} (a command may narrow both).
     * A workload's files go as the absolute directory, unpacked: the client packs them before it
     * submits.
     */
    public dev.abfleet.proto.fleet.v1.Benchmark.Builder toProto(List<String> metrics, int iterations) {
      var b = dev.abfleet.proto.fleet.v1.Benchmark.newBuilder();
      if (workload != null) {
        b.setWorkload(workload.toProto());
      }
      ratios.forEach(r -> b.addRatios(dev.abfleet.proto.fleet.v1.CounterRatio.newBuilder()
          .setName(r.name()).setNum(r.num()).setDen(r.den())));
      return b
          .setHarness(harness)
          .addAllMetrics(metrics)
          .setIterations(iterations)
          .setIterationMs(iterationMs)
          .setWarmupIterations(warmup)
          .setVolume(volume)
          .setFiles(files)
          .setCache(cache)
          .setTransport(transport)
          .setThreads(load.threads())
          .setSeqSizeMib(load.seqSizeMib())
          .setFileSize(load.fileSize());
    }
  }

  /**
   * How hard fleetbench works in each boot (fleet.yaml benchmark or spec file keys threads,
   * seq_size, file_size).
   *
   * @param threads harness threads, each on its own files; 0 = one per guest vCPU
   * @param seqSizeMib seq_read's file per thread in MiB; 0 = the harness default (16)
   * @param fileSize bytes in each file the metadata and tree metrics create; 0 = empty files
   */
  public record Load(int threads, int seqSizeMib, int fileSize) {
    public static final Load DEFAULT = new Load(0, 0, 0);
  }

  /**
   * A user workload (fleet.yaml or spec file {@code workload:}).
   *
   * @param files the directory of its files, absolute (the guest has them under /workload)
   * @param run the shell command run in the guest, in the benchmark's volume directory
   * @param output "jsonl" or "gobench"
   * @param timeoutS seconds before the guest kills the run
   */
  public record Workload(java.nio.file.Path files, String run, String output, int timeoutS) {

    /** The proto workload: files by their directory (uri), to be packed by the client. */
    public dev.abfleet.proto.fleet.v1.Workload toProto() {
      return dev.abfleet.proto.fleet.v1.Workload.newBuilder()
          .setFiles(dev.abfleet.proto.fleet.v1.Artifact.newBuilder().setUri(files.toString()))
          .setRun(run)
          .setOutput(output)
          .setTimeoutS(timeoutS)
          .build();
    }
  }

  /**
   * A recurring experiment (see {@code abfleet nightly}): at each {@code cron} time, the
   * candidate artifact is resolved and compared with the baseline on {@code benchmark}.
   *
   * @param pairs boot pairs per run (default: policy.pairs)
   * @param line line of the schedule in fleet.yaml, for messages
   */
  public record Schedule(
      String name, dev.abfleet.model.Cron cron, String benchmark, Candidate candidate,
      Baseline baseline, int pairs, Hosts hosts, int line, String kind, double minChange) {
    /** A schedule without {@code min_change}. */
    public Schedule(String name, dev.abfleet.model.Cron cron, String benchmark, Candidate candidate,
        Baseline baseline, int pairs, Hosts hosts, int line, String kind) {
      this(name, cron, benchmark, candidate, baseline, pairs, hosts, line, kind, 0);
    }

    /** An A/B schedule ({@code kind: ab}, the default). */
    public Schedule(String name, dev.abfleet.model.Cron cron, String benchmark, Candidate candidate,
        Baseline baseline, int pairs, Hosts hosts, int line) {
      this(name, cron, benchmark, candidate, baseline, pairs, hosts, line, AB);
    }

    /** A/B: candidate against baseline. */
    public static final String AB = "ab";
    /**
     * A/A: the {@code kernel:} (held in {@link #candidate}) as both arms; the run's noise is merged
     * into the host class's noise record, like {@code abfleet calibrate --real}.
     */
    public static final String AA = "aa";

    public boolean aa() {
      return AA.equals(kind);
    }

    /**
     * The smallest change its series' change points are flagged for ({@code min_change},
     * relative: 0.05 = 5%); 0 = any significant shift.
     */
    public Schedule withMinChange(double value) {
      return new Schedule(name, cron, benchmark, candidate, baseline, pairs, hosts, line, kind, value);
    }
  }

  /**
   * Where tonight's candidate kernel comes from. kind "path": the kernel image at
   * {@code location} (e.g. a link a build job updates); kind "newest_in": the most recently
   * modified file named vmlinuz* or Image* in the directory {@code location}.
   */
  public record Candidate(String kind, String location) {}

  /**
   * What the candidate is compared with. kind "pinned": always the kernel at {@code path};
   * kind "last_accepted": the candidate of the last accepted run of this schedule (its gate
   * passed, or an operator accepted it when it was held), or the kernel at {@code path} before any run was accepted (empty path:
   * the first run needs an accepted one and fails with a message).
   */
  public record Baseline(String kind, String path) {
    /** The baseline of an A/A schedule: its candidate, the same kernel. */
    public static final Baseline SAME_KERNEL = new Baseline("same_kernel", "");
  }

  /**
   * Which hosts may run a schedule and how they are grouped.
   *
   * @param hypervisors one or more of qemu, vz, sim (a host matches any listed; several make a
   *     cross-host comparison; sim is never mixed with real ones)
   * @param arch x86_64 or aarch64; empty = any
   * @param labels every label must match
   * @param classBy host class dimensions of a cross-host comparison (cpu_model, arch,
   *     label:KEY); empty = one pool
   */
  public record Hosts(List<String> hypervisors, String arch, Map<String, String> labels, List<String> classBy) {
    public Hosts {
      hypervisors = List.copyOf(hypervisors);
      labels = Map.copyOf(labels);
      classBy = List.copyOf(classBy);
    }

    /** One hypervisor, no class_by. */
    public Hosts(String hypervisor, String arch, Map<String, String> labels) {
      this(List.of(hypervisor), arch, labels, List.of());
    }

    /** The first hypervisor listed (the only one unless this is a cross-host comparison). */
    public String hypervisor() {
      return hypervisors.get(0);
    }
  }

  /** The schedule named {@code name}, or a Problem listing the ones fleet.yaml defines. */
  public Schedule schedule(String name) {
    return schedules.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow(() ->
        new dev.abfleet.config.Problem("unknown schedule '" + name + "'; fleet.yaml defines "
            + (schedules.isEmpty() ? "none (add a schedules: list)"
                : String.join(", ", schedules.stream().map(Schedule::name).toList()))));
  }

  /** This fleet with benchmark {@code name} (null = the default one) running {@code w} instead. */
  public FleetConfig withWorkload(String name, Workload w) {
    return withBenchmark(benchmark(name).withWorkload(w));
  }

  /** This fleet with the benchmark {@code name} (null = the default one) using {@code n} files. */
  public FleetConfig withFiles(String name, int n) {
    return withBenchmark(benchmark(name).withFiles(n));
  }

  /** This config with the benchmark {@code name} (null = the default one) on transport {@code t}. */
  public FleetConfig withTransport(String name, String t) {
    return withBenchmark(benchmark(name).withTransport(t));
  }

  /** This fleet with the benchmark {@code name} (null = the default one) showing {@code ratios}. */
  public FleetConfig withRatios(String name, List<dev.abfleet.model.CounterRatio> ratios) {
    return withBenchmark(benchmark(name).withRatios(ratios));
  }

  /** This fleet with benchmark {@code name} (null = the default one) running with {@code l}. */
  public FleetConfig withLoad(String name, Load l) {
    return withBenchmark(benchmark(name).withLoad(l));
  }

  private FleetConfig withBenchmark(Benchmark b) {
    Map<String, Benchmark> changed = new java.util.LinkedHashMap<>(benchmarks);
    changed.put(b.name(), b);
    return new FleetConfig(controller, policy, vm, Map.copyOf(changed), defaultBenchmark, schedules);
  }

  public Benchmark benchmark(String name) {
    Benchmark b = benchmarks.get(name == null ? defaultBenchmark : name);
    if (b == null) {
      throw new dev.abfleet.config.Problem("unknown benchmark '" + name + "'; fleet.yaml defines "
          + String.join(", ", benchmarks.keySet()));
    }
    return b;
  }
}
