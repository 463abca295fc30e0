package dev.abfleet.cli.flood;

import dev.abfleet.model.Limits;

import dev.abfleet.bench.flood.FloodBench;
import dev.abfleet.bench.flood.Latencies;

import dev.abfleet.config.Problem;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet bench flood}: does a flooding client hurt the others? */
@Command(name = "flood", mixinStandardHelpOptions = true,
    description = {
      "Start a controller on loopback (its store in a temporary directory, default limits), warm it",
      "up for a few unmeasured seconds, and time a well-behaved client's calls (ListHosts, ListExperiments, GetExperiment, one",
      "SubmitExperiment a second) for --seconds alone, for --seconds while another client floods",
      "(--threads threads calling as fast as they can) and a third sends one oversized message,",
      "and for --seconds alone again. Prints the well-behaved client's p50/p99/max in each phase",
      "and the flooder's accepted and rate-limited calls, and checks that every submitted",
      "experiment is still there.",
      "Exit 0 when the well-behaved client saw no error and nothing was lost, 1 otherwise."
    })
public final class FloodBenchCommand implements Callable<Integer> {
  @Option(names = "--seconds", defaultValue = "30", paramLabel = "N",
      description = "Length of each phase, in seconds (default: ${DEFAULT-VALUE}).")
  int seconds;

  @Option(names = "--threads", defaultValue = "4", paramLabel = "N",
      description = "Flooding threads, all one client (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--rate", defaultValue = "20", paramLabel = "N",
      description = "Calls per second of the well-behaved client; keep it under the per-client limit"
          + " (default: ${DEFAULT-VALUE}).")
  int rate;

  @Option(names = "--huge-mib", defaultValue = "100", paramLabel = "N",
      description = "Size of the oversized message in MiB; 0 = none (default: ${DEFAULT-VALUE}).")
  int hugeMib;

  PrintStream out = System.out;

  /** Unmeasured seconds first, so the JIT does not count against the phase without flood. */
  static final int WARMUP_SECONDS = 5;

  // gRPC logs each refused oversized message with a stack trace; the bench reports it in one line.
  private static final java.util.logging.Logger GRPC_NETTY =
      java.util.logging.Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty");

  @Override
  public Integer call() throws Exception {
    check();
    Limits limits = Limits.defaults();
    Path dir = Files.createTempDirectory("abfleet-flood-");
    ControllerSettings settings = ControllerSettings.defaults().withGrpc("127.0.0.1", 0)
        .withStore(ControllerSettings.Store.JDBC, ControllerSettings.h2FileUrl(dir.resolve("store")))
        .withLimits(limits);
    try (ControllerNode node = ControllerNode.start(settings)) {
      FloodBench bench = new FloodBench(node.grpcPort());
      Duration phase = Duration.ofSeconds(seconds);
      out.printf(Locale.ROOT, "abfleet bench flood: %d s per phase, controller on 127.0.0.1:%d, limits %s calls/s"
          + " (burst %d) per client%n", seconds, node.grpcPort(), number(limits.callsPerSecond()), limits.burst());
      GRPC_NETTY.setLevel(java.util.logging.Level.SEVERE);
      FloodBench.Polite warmup = bench.polite(Duration.ofSeconds(Math.min(WARMUP_SECONDS, seconds)), rate, "warmup");
      FloodBench.Polite quiet = bench.polite(phase, rate, "quiet");
      FloodBench.FloodHandle flooding = bench.flood(threads);
      CompletableFuture<FloodBench.Huge> huge = hugeMib == 0 ? CompletableFuture.completedFuture(null)
          : CompletableFuture.supplyAsync(() -> bench.huge(hugeMib));
      FloodBench.Polite loud = bench.polite(phase, rate, "flood");
      FloodBench.Flood flood = flooding.stop();
      FloodBench.Huge hugeAnswer = huge.get();
      // Quiet again: the machine's other load drifts, so the flood phase sits between two quiet ones.
      FloodBench.Polite after = bench.polite(phase, rate, "after");
      List<String> ids = new ArrayList<>(warmup.ids());
      ids.addAll(quiet.ids());
      ids.addAll(loud.ids());
      ids.addAll(after.ids());
      List<String> missing = bench.missing(ids);
      long limited = node.metrics().rateLimitedCount("call");
      print(List.of(quiet, loud, after), flood, hugeAnswer, ids.size(), missing, limited);
      boolean healthy = quiet.latencies().errors() + loud.latencies().errors() + after.latencies().errors() == 0
          && missing.isEmpty()
          && (hugeAnswer == null || hugeAnswer.status() == io.grpc.Status.Code.RESOURCE_EXHAUSTED);
      return healthy ? 0 : 1;
    } finally {
      deleteTree(dir);
    }
  }

  void check() {
    range("--seconds", seconds, 1, 3600);
    range("--threads", threads, 1, 256);
    range("--rate", rate, 1, 1000);
    range("--huge-mib", hugeMib, 0, 1024);
  }

  private void print(List<FloodBench.Polite> phases, FloodBench.Flood flood,
      FloodBench.Huge huge, int submitted, List<String> missing, long limitedCounted) {
    out.printf(Locale.ROOT, "well-behaved client, %d calls/s (ListHosts, ListExperiments, GetExperiment,"
        + " 1 SubmitExperiment/s):%n", rate);
    out.println("  " + line("without flood", phases.get(0).latencies()));
    out.println("  " + line("with flood", phases.get(1).latencies()));
    out.println("  " + line("after flood", phases.get(2).latencies()));
    out.printf(Locale.ROOT, "flooder, %d threads on one connection, %d s: %d accepted, %d rate-limited"
        + " (RESOURCE_EXHAUSTED), %d other errors; %.0f calls/s attempted%n", threads, seconds, flood.accepted(),
        flood.limited(), flood.other(), (flood.accepted() + flood.limited() + flood.other()) / (double) seconds);
    if (huge != null) {
      out.printf(Locale.ROOT, "%d MiB message: %s after %.0f ms (%s)%n", hugeMib, huge.status(), huge.millis(),
          huge.description());
    }
    out.printf(Locale.ROOT, "after: controller answering; %d of %d submitted experiments found%s;"
        + " abfleet_rate_limited_total{kind=\"call\"} %d%n", submitted - missing.size(), submitted,
        missing.isEmpty() ? "" : " (missing: " + String.join(", ", missing) + ")", limitedCounted);
  }

  static String line(String what, Latencies l) {
    return String.format(Locale.ROOT, "%-15s %5d calls  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms  errors %d",
        what + ":", l.calls(), l.percentile(0.50), l.percentile(0.99), l.max(), l.errors());
  }

  private static void range(String option, int value, int min, int max) {
    if (value < min || value > max) {
      throw new Problem(option + " " + value + ": expected " + min + " to " + max);
    }
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
