package dev.abfleet.cli.experiments;

import dev.abfleet.bench.flood.Latencies;
import dev.abfleet.config.Problem;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Benchmark;
import dev.abfleet.proto.fleet.v1.BootSpec;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsResponse;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet bench list}: how long ListExperiments takes with many experiments stored. */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = {
      "Start a controller on loopback (H2 store in a temporary directory), submit --experiments",
      "experiments (no workers: they stay running), then time --calls ListExperiments calls for the",
      "first page of --page, and one walk through every page, optionally while --flooders threads",
      "ask for pages of 1000 as fast as they can. Prints p50/p99/max and the heap in use after."
    })
public final class ListBenchCommand implements Callable<Integer> {
  @Option(names = "--experiments", defaultValue = "1000", paramLabel = "N",
      description = "Experiments to store first (default: ${DEFAULT-VALUE}).")
  int experiments;

  @Option(names = "--page", defaultValue = "50", paramLabel = "N", description = "Page size timed (default: ${DEFAULT-VALUE}).")
  int page;

  @Option(names = "--calls", defaultValue = "200", paramLabel = "N", description = "Timed calls (default: ${DEFAULT-VALUE}).")
  int calls;

  @Option(names = "--flooders", defaultValue = "0", paramLabel = "N",
      description = "Threads listing pages of 1000 meanwhile (default: ${DEFAULT-VALUE}).")
  int flooders;

  PrintStream out = System.out;

  @Override
  public Integer call() throws Exception {
    range("--experiments", experiments, 1, 100_000);
    range("--page", page, 1, 1000);
    range("--calls", calls, 1, 100_000);
    range("--flooders", flooders, 0, 64);
    Path dir = Files.createTempDirectory("abfleet-list-");
    ControllerSettings settings = ControllerSettings.defaults().withGrpc("127.0.0.1", 0)
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store")))
        // The bench is the only client: per-client rate limits would time the limiter.
        .withLimits(dev.abfleet.model.Limits.unlimited());
    try (ControllerNode node = ControllerNode.start(settings)) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", node.grpcPort()).usePlaintext().build();
      try {
        var client = ExperimentServiceGrpc.newBlockingStub(channel);
        long t0 = System.nanoTime();
        for (int i = 0; i < experiments; i++) {
          client.submitExperiment(SubmitExperimentRequest.newBuilder()
              .setExperimentId(String.format(Locale.ROOT, "e-list-%06d", i)).setSpec(spec()).build());
        }
        out.printf(Locale.ROOT, "abfleet bench list: %d experiments submitted in %.1f s; max heap %d MiB%n",
            experiments, (System.nanoTime() - t0) / 1e9, Runtime.getRuntime().maxMemory() >> 20);
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicLong flooded = new AtomicLong();
        List<Thread> threads = Stream.generate(() -> new Thread(() -> {
          while (flooding.get()) {
            client.listExperiments(ListExperimentsRequest.newBuilder().setPageSize(1000).build());
            flooded.incrementAndGet();
          }
        })).limit(flooders).toList();
        threads.forEach(Thread::start);
        // Unmeasured: the JIT and the first connection.
        for (int i = 0; i < Math.min(20, calls); i++) {
          client.listExperiments(ListExperimentsRequest.newBuilder().setPageSize(page).build());
        }
        double[] millis = new double[calls];
        for (int i = 0; i < calls; i++) {
          long s = System.nanoTime();
          ListExperimentsResponse r = client.listExperiments(ListExperimentsRequest.newBuilder().setPageSize(page).build());
          millis[i] = (System.nanoTime() - s) / 1e6;
          if (r.getExperimentsCount() != Math.min(page, experiments)) {
            throw new IllegalStateException("a page of " + r.getExperimentsCount() + " experiments; expected "
                + Math.min(page, experiments));
          }
        }
        long walk = System.nanoTime();
        int pages = 0;
        int seen = 0;
        String token = "";
        do {
          ListExperimentsResponse r = client.listExperiments(ListExperimentsRequest.newBuilder()
              .setPageSize(page).setPageToken(token).build());
          seen += r.getExperimentsCount();
          token = r.getNextPageToken();
          pages++;
        } while (!token.isEmpty());
        double walkMs = (System.nanoTime() - walk) / 1e6;
        flooding.set(false);
        for (Thread t : threads) {
          t.join();
        }
        Latencies l = new Latencies(millis, 0);
        Runtime rt = Runtime.getRuntime();
        out.printf(Locale.ROOT, "first page of %d, %d calls%s: p50 %.2f ms  p99 %.2f ms  max %.2f ms%n", page, calls,
            flooders == 0 ? "" : " (" + flooders + " flooders, " + flooded.get() + " pages of 1000 meanwhile)",
            l.percentile(0.50), l.percentile(0.99), l.max());
        out.printf(Locale.ROOT, "every page: %d pages, %d experiments, %.0f ms in all (%.2f ms a page); heap in use %d MiB%n",
            pages, seen, walkMs, walkMs / pages, (rt.totalMemory() - rt.freeMemory()) >> 20);
        return seen == experiments ? 0 : 1;
      } finally {
        channel.shutdownNow();
      }
    } finally {
      deleteTree(dir);
    }
  }

  private static ExperimentSpec spec() {
    return placeholderSpec("list-bench");
  }

  /**
   * A submittable A/B whose kernels are made-up hashes nobody can boot: it stays queued, which is
   * all a bench or test of the store needs.
   */
  public static ExperimentSpec placeholderSpec(String name) {
    return ExperimentSpec.newBuilder().setName(name)
        .addArms(arm("base", "baseline", "a"))
        .addArms(arm("cand", "candidate", "b"))
        .setBenchmark(Benchmark.newBuilder().addMetrics("metadata_stat"))
        .setPolicy(Policy.newBuilder().setPairs(6).setSeed(17).addGatingMetrics("metadata_stat"))
        .setPriority("adhoc")
        .build();
  }

  private static Arm arm(String name, String role, String hashChar) {
    return Arm.newBuilder().setName(name).setRole(role)
        .setBoot(BootSpec.newBuilder().setKernel(Artifact.newBuilder().setSha256(hashChar.repeat(64)).setUri("/k/" + name)))
        .build();
  }

  private static void range(String option, int value, int min, int max) {
    if (value < min || value > max) {
      throw new Problem(option + " " + value + ": expected " + min + " to " + max);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
