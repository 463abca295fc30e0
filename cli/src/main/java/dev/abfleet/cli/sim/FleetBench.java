package dev.abfleet.cli.sim;

import dev.abfleet.bench.fleet.BlockTimes;
import dev.abfleet.bench.fleet.MetricsText;
import dev.abfleet.bench.fleet.ProcStats;
import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.proto.fleet.v1.ListHostsResponse;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.sim.SimArtifacts;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code abfleet bench fleet}: the controller and the sim workers as the operator would run them,
 * each in its own process ({@code abfleet controller}, {@code abfleet sim-fleet}), so that the
 * controller's CPU and memory are its own and read from /proc.
 */
final class FleetBench {
  /** What to run; see {@link FleetBenchCommand} for each option. */
  record Options(int workers, int experiments, int pairs, int heartbeatMs, int steadyS, double timeScale,
      long seed, int iterations, int iterationMs, int timeoutS, boolean keep) {
    String commandLine() {
      return "abfleet bench fleet --workers " + workers + " --experiments " + experiments + " --pairs " + pairs
          + " --heartbeat-ms " + heartbeatMs + " --steady-s " + steadyS + " --time-scale " + timeScale
          + " --iterations " + iterations + " --iteration-ms " + iterationMs;
    }
  }

  private FleetBench() {}

  static FleetFigures run(Options o, PrintStream err) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("abfleet-bench-fleet-");
    int grpcPort = freePort();
    int metricsPort = freePort();
    Path config = dir.resolve("fleet.yaml");
    Files.writeString(config, fleetYaml(o.heartbeatMs(), grpcPort, metricsPort, dir));
    String target = "127.0.0.1:" + grpcPort;
    Process controller = null;
    Process workers = null;
    ManagedChannel channel = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
    try {
      controller = launch(dir.resolve("controller.log"), "controller", "--config", config.toString(),
          "--plaintext", "--home", dir.resolve("controller").toString());
      var hosts = ExperimentServiceGrpc.newBlockingStub(channel);
      ListHostsWatch watch = new ListHostsWatch(hosts);
      watch.awaitServing(controller, dir.resolve("controller.log"), Duration.ofSeconds(120));
      err.println("abfleet bench fleet: controller pid " + controller.pid() + " serving on " + target
          + "; starting " + o.workers() + " sim workers (logs in " + dir + ")");
      long started = System.nanoTime();
      workers = launch(dir.resolve("sim-fleet.log"), "sim-fleet", "--workers", String.valueOf(o.workers()),
          "--controller", target, "--home", dir.resolve("sim").toString(),
          "--time-scale", String.valueOf(o.timeScale()));
      watch.awaitConnected(o.workers(), workers, dir.resolve("sim-fleet.log"), Duration.ofSeconds(o.timeoutS()));
      double connectS = (System.nanoTime() - started) / 1e9;
      err.printf(Locale.ROOT, "abfleet bench fleet: %d workers connected in %.1f s; steady state for %d s%n",
          o.workers(), connectS, o.steadyS());
      double connectListMs = watch.restart();
      double steady = cores(controller.pid(), () -> watch.pollFor(Duration.ofSeconds(o.steadyS())));
      double steadyListMs = watch.maxMs();
      double busy = Double.NaN;
      List<Experiment> done = List.of();
      if (o.experiments() > 0) {
        try (ExperimentClient client = new ExperimentClient(target)) {
          Map<String, ExperimentSpec> batch = batch(o, dir);
          err.println("abfleet bench fleet: submitting " + o.experiments() + " experiments of " + o.pairs() + " pairs");
          busy = cores(controller.pid(), () -> {
            Thread poller = new Thread(() -> watch.pollFor(Duration.ofSeconds(o.timeoutS())), "abfleet-bench-listhosts");
            poller.setDaemon(true);
            poller.start();
            SchedulerBench.submitAndAwait(client, batch, o.timeoutS(), new ConcurrentLinkedQueue<>());
            poller.interrupt();
          });
          // Each with all its boots, after the CPU window: the reports are the benchmark's reading.
          List<Experiment> all = new ArrayList<>();
          for (String id : batch.keySet()) {
            all.add(client.get(id));
          }
          done = all;
        }
      }
      List<BlockTimes.Block> blocks = BlockTimes.blocks(done.stream().flatMap(e -> e.getBootsList().stream())
          .map(b -> new BlockTimes.Boot(b.getHostId(), b.getLeaseEpoch(), b.getTelemetry().getStartedAtMs(),
              b.getTelemetry().getEndedAtMs()))
          .toList());
      long[] gaps = BlockTimes.gaps(blocks);
      String metrics = scrape(metricsPort);
      long leasedAfter = o.experiments() == 0 ? 0 : watch.leased();
      return new FleetFigures(o.workers(), connectS,
          Math.round(MetricsText.sum(metrics, "abfleet_grpc_calls_total", "WorkerService/Connect")),
          steady, busy, ProcStats.rssMib(controller.pid()),
          Math.max(connectListMs, watch.maxMs()), steadyListMs, watch.failures(),
          BlockTimes.quantile(gaps, 0.50), BlockTimes.quantile(gaps, 0.99),
          blocks.isEmpty() ? Double.NaN : BlockTimes.makespanRatio(blocks, o.workers()),
          Math.round(MetricsText.sum(metrics, "abfleet_dropped_commands_total", "")),
          Math.round(MetricsText.sum(metrics, "abfleet_late_replies_total", "")), leasedAfter,
          o.experiments(), (int) done.stream().filter(e -> e.getState().equals("completed")).count(),
          blocks.size(), o.commandLine());
    } finally {
      channel.shutdownNow();
      stop(workers);
      stop(controller);
      if (o.keep()) {
        err.println("abfleet bench fleet: kept " + dir + " (controller.log, sim-fleet.log, the store)");
      } else {
        CacheFiles.deleteTree(dir);
      }
    }
  }

  /** The experiments, by id: bench scheduler's specs (every other one with a simulated regression). */
  private static Map<String, ExperimentSpec> batch(Options o, Path dir) throws IOException {
    Artifact base = SimArtifacts.kernel(dir.resolve("kernels"), "base");
    Artifact cand = SimArtifacts.kernel(dir.resolve("kernels"), "cand");
    BenchOptions spec = new BenchOptions(o.workers(), o.experiments(), o.pairs(), o.timeScale(), o.seed(), null,
        o.iterations(), o.iterationMs(), true, o.timeoutS(), false);
    Map<String, ExperimentSpec> batch = new LinkedHashMap<>();
    String run = Long.toString(System.currentTimeMillis(), 36);
    for (int i = 0; i < o.experiments(); i++) {
      batch.put(String.format(Locale.ROOT, "fleet-%s-e%03d", run, i + 1), SchedulerBench.spec(spec, i, base, cand));
    }
    return batch;
  }

  /** fleet.yaml of the benchmarked controller: loopback, plaintext, its own H2 and artifacts, limits raised. */
  static String fleetYaml(int heartbeatMs, int grpcPort, int metricsPort, Path dir) {
    return """
        controller:
          grpc_host: 127.0.0.1
          grpc_port: %d
          cluster_port: 0
          heartbeat_interval_ms: %d
          plaintext: true
          metrics_port: %d
          store:
            kind: h2
            path: "%s"
          artifacts:
            path: "%s"
          limits:
            calls_per_second: 1000000
            burst: 1000000
            worker_messages_per_second: 1000000
            max_concurrent_calls_per_connection: 100000
        """.formatted(grpcPort, heartbeatMs, metricsPort, dir.resolve("store"), dir.resolve("artifacts"));
  }

  private interface Measured {
    void run() throws IOException, InterruptedException;
  }

  /** The process's CPU time while {@code body} ran over the wall time it took, cores. */
  private static double cores(long pid, Measured body) throws IOException, InterruptedException {
    double cpu0 = ProcStats.cpuSeconds(pid);
    long t0 = System.nanoTime();
    body.run();
    double wall = (System.nanoTime() - t0) / 1e9;
    return (ProcStats.cpuSeconds(pid) - cpu0) / wall;
  }

  /** {@code abfleet ARGS} in a new JVM with this one's class path; stdout and stderr to {@code log}. */
  private static Process launch(Path log, String... args) throws IOException {
    List<String> argv = new ArrayList<>();
    argv.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    argv.add("-cp");
    argv.add(System.getProperty("java.class.path"));
    argv.add("dev.abfleet.cli.Main");
    argv.addAll(List.of(args));
    return new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** Asks the process to stop (its shutdown hooks run), then kills it after 30 s. */
  private static void stop(Process p) throws InterruptedException {
    if (p == null) {
      return;
    }
    p.destroy();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** The last lines of a process's log, for an error message (the log goes with the temp dir). */
  static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String scrape(int port) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("the controller's /metrics answered HTTP " + r.statusCode());
    }
    return r.body();
  }

  /** ListHosts, asked about once a second, with the slowest answer kept. */
  private static final class ListHostsWatch {
    /** The page `abfleet hosts list` asks for (HostsCommand.PAGE). */
    private static final int HOSTS_PAGE = 1000;

    private final ExperimentServiceGrpc.ExperimentServiceBlockingStub stub;
    private final AtomicLong maxNanos = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    ListHostsWatch(ExperimentServiceGrpc.ExperimentServiceBlockingStub stub) {
      this.stub = stub;
    }

    /** The first page as {@code hosts list} asks it, with the fleet's counts; timed. */
    private ListHostsResponse list() {
      long t0 = System.nanoTime();
      ListHostsResponse page = stub.withDeadlineAfter(30, TimeUnit.SECONDS).listHosts(
          ListHostsRequest.newBuilder().setPageSize(HOSTS_PAGE).build());
      maxNanos.accumulateAndGet(System.nanoTime() - t0, Math::max);
      return page;
    }

    /** ListHosts answered an error (the controller's own ask timed out): counted, and slower than any answer. */
    private void failed() {
      failures.incrementAndGet();
    }

    long failures() {
      return failures.get();
    }

    /** The slowest answer so far, ms; the next ones are timed afresh. */
    double restart() {
      return maxNanos.getAndSet(0) / 1e6;
    }

    double maxMs() {
      return maxNanos.get() / 1e6;
    }

    long leased() {
      return list().getLeasedHosts();
    }

    void awaitServing(Process controller, Path log, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        try {
          stub.withDeadlineAfter(5, TimeUnit.SECONDS).listHosts(ListHostsRequest.getDefaultInstance());
          return;
        } catch (io.grpc.StatusRuntimeException e) {
          if (!controller.isAlive()) {
            throw new IllegalStateException("the controller exited with " + controller.exitValue() + "; its log ends:\n"
                + tail(log));
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the controller did not serve within " + timeout.toSeconds() + " s: " + e.getStatus());
          }
          Thread.sleep(250);
        }
      }
    }

    void awaitConnected(int n, Process workers, Path log, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      long connected = 0;
      while (System.nanoTime() < deadline) {
        try {
          connected = list().getConnectedHosts();
        } catch (io.grpc.StatusRuntimeException e) {
          failed();
        }
        if (connected >= n) {
          return;
        }
        if (!workers.isAlive()) {
          throw new IllegalStateException("the sim workers exited with " + workers.exitValue() + "; their log ends:\n"
              + tail(log));
        }
        Thread.sleep(250);
      }
      throw new IllegalStateException("only " + connected + " of " + n + " sim workers connected in "
          + timeout.toSeconds() + " s");
    }

    /** Lists the hosts once a second for {@code d} or until interrupted. */
    void pollFor(Duration d) {
      long end = System.nanoTime() + d.toNanos();
      while (System.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
        try {
          list();
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (io.grpc.StatusRuntimeException e) {
          // The bench stopping the poller mid-call cancels that call: not an answer of the controller.
          if (!Thread.currentThread().isInterrupted()) {
            failed();
          }
        }
      }
    }
  }
}
