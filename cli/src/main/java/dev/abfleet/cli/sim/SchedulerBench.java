package dev.abfleet.cli.sim;

import dev.abfleet.proto.fleet.v1.BootSpec;

import dev.abfleet.model.Limits;

import dev.abfleet.bench.sim.SimFleet;

import dev.abfleet.cli.ExperimentClient;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.worker.sim.SimArtifacts;
import dev.abfleet.worker.sim.SimBootRecord;
import dev.abfleet.worker.sim.SimModel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The scheduler benchmark: an embedded controller and N sim workers in this JVM (real gRPC over
 * loopback), a batch of experiments submitted at once (equal or mixed priorities), and the figures of how
 * the fleet got through them.
 */
final class SchedulerBench {
  /** What one run produced; times are {@link System#nanoTime()} values. */
  record Result(List<SimBootRecord> boots, List<Experiment> experiments, long firstSubmitNanos,
      long lastSubmitNanos, long lastCompletionNanos) {
    long makespanNanos() {
      return lastCompletionNanos - firstSubmitNanos;
    }
  }

  private SchedulerBench() {}

  static Result run(BenchOptions o, SimModel model, Path home, PrintStream err) throws IOException, InterruptedException {
    ControllerSettings settings = o.h2()
        ? ControllerSettings.defaults().withStore(ControllerSettings.Store.JDBC,
            ControllerSettings.h2FileUrl(home.resolve("store").resolve("controller")))
        : ControllerSettings.inMemory();
    settings = settings.withLimits(Limits.unlimited());
    ConcurrentLinkedQueue<SimBootRecord> boots = new ConcurrentLinkedQueue<>();
    try (ControllerNode controller = ControllerNode.start(settings)) {
      String target = "127.0.0.1:" + controller.grpcPort();
      try (SimFleet fleet = SimFleet.start(target, o.workers(), "sim-", model, Map.of(), home, boots::add);
          ExperimentClient client = new ExperimentClient(target)) {
        SimFleet.awaitHosts(target, fleet.size(), 60);
        err.println("abfleet bench: " + o.workers() + " sim workers registered; submitting " + o.experiments()
            + " experiments of " + o.pairs() + " pairs");
        Artifact base = SimArtifacts.kernel(home.resolve("kernels"), "base");
        Artifact cand = SimArtifacts.kernel(home.resolve("kernels"), "cand");
        Map<String, ExperimentSpec> batch = new LinkedHashMap<>();
        for (int i = 0; i < o.experiments(); i++) {
          batch.put(String.format(Locale.ROOT, "bench-e%03d", i + 1), spec(o, i, base, cand));
        }
        return submitAndAwait(client, batch, o.timeoutS(), boots);
      }
    }
  }

  static ExperimentSpec spec(BenchOptions o, int i, Artifact base, Artifact cand) {
    return ExperimentSpec.newBuilder()
        .setName("bench-" + (i + 1))
        .addArms(Arm.newBuilder().setName("base").setRole("baseline").setBoot(BootSpec.newBuilder().setKernel(base)))
        // Every other experiment carries a real simulated regression, so verdicts are not all alike.
        .addArms(Arm.newBuilder().setName("cand").setRole("candidate").setBoot(BootSpec.newBuilder().setKernel(cand)
                .setCmdlineExtra(i % 2 == 0 ? "sim.effect.metadata_stat=0.9" : "")))
        .setBenchmark(Benchmark.newBuilder().setIterations(o.iterations()).setIterationMs(o.iterationMs()))
        .setSelector(HostSelector.newBuilder().setHypervisor("sim"))
        .setPolicy(Policy.newBuilder().setPairs(o.pairs()).setSeed(o.seed() * 1_000_003L + i + 1))
        .setPriority(o.priority(i))
        .build();
  }

  /**
   * Submits the whole batch at once (one client thread per experiment, as many CI jobs would) and
   * follows every experiment to its end; cancels those still running after {@code timeoutS}.
   */
  static Result submitAndAwait(ExperimentClient client, Map<String, ExperimentSpec> batch, int timeoutS,
      ConcurrentLinkedQueue<SimBootRecord> boots) throws InterruptedException {
    AtomicLong lastSubmit = new AtomicLong();
    AtomicLong lastCompletion = new AtomicLong();
    ExecutorService clients = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "abfleet-bench-client");
      t.setDaemon(true);
      return t;
    });
    long start = System.nanoTime();
    List<Future<Experiment>> futures = new ArrayList<>();
    batch.forEach((id, spec) -> futures.add(clients.submit(() -> {
      client.submit(id, spec);
      lastSubmit.accumulateAndGet(System.nanoTime(), Math::max);
      Experiment e = client.watch(id, x -> { });
      lastCompletion.accumulateAndGet(System.nanoTime(), Math::max);
      return e;
    })));
    clients.shutdown();
    if (!clients.awaitTermination(timeoutS, TimeUnit.SECONDS)) {
      batch.keySet().forEach(id -> client.cancel(id, "abfleet bench: --timeout " + timeoutS + " s passed"));
      clients.awaitTermination(30, TimeUnit.SECONDS);
    }
    List<Experiment> out = new ArrayList<>();
    for (Future<Experiment> f : futures) {
      out.add(outcome(f));
    }
    return new Result(List.copyOf(boots), out, start, lastSubmit.get(), lastCompletion.get());
  }

  private static Experiment outcome(Future<Experiment> f) throws InterruptedException {
    try {
      return f.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("an experiment did not end within 30 s of being cancelled", e);
    }
  }
}
