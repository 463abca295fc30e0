package dev.abfleet.cli.experiments;

import dev.abfleet.bench.flood.Latencies;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSummary;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsResponse;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code abfleet bench read-flood}: clients that read a running controller's experiments as
 * fast as they can, for memory and store tests of a controller started on its own.
 */
@Command(name = "read-flood", mixinStandardHelpOptions = true,
    description = {
      "Flood a running controller (plaintext, e.g. abfleet controller --plaintext) with reads:",
      "--clients threads, each on its own connection, walk every page of ListExperiments (pages",
      "of --page) and then every boots page of GetExperiment of one of the --largest experiments",
      "with the most pairs, in turn, for --seconds. Prints the calls, their p50/p99/max and the",
      "errors by status per call. Exit 0 when no call failed, 1 otherwise."
    })
public final class ReadFloodBenchCommand implements Callable<Integer> {
  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT", description = "The controller's gRPC address.")
  String controller;

  @Option(names = "--clients", defaultValue = "8", paramLabel = "N", description = "Reading threads (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--seconds", defaultValue = "180", paramLabel = "S", description = "How long to flood (default: ${DEFAULT-VALUE}).")
  int seconds;

  @Option(names = "--page", defaultValue = "1000", paramLabel = "N", description = "ListExperiments page size (default: ${DEFAULT-VALUE}).")
  int page;

  @Option(names = "--largest", defaultValue = "3", paramLabel = "N",
      description = "GetExperiment reads the N experiments with the most pairs (default: ${DEFAULT-VALUE}).")
  int largest;

  PrintStream out = System.out;

  /** Latencies of one kind of call, in ms, and its failures by status code. */
  private static final class Calls {
    final List<Double> millis = new ArrayList<>();
    final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();

    synchronized void ok(double ms) {
      millis.add(ms);
    }

    void failed(StatusRuntimeException e) {
      errors.computeIfAbsent(e.getStatus().getCode().toString(), k -> new AtomicLong()).incrementAndGet();
    }

    synchronized Latencies latencies() {
      return new Latencies(millis.stream().mapToDouble(Double::doubleValue).toArray(),
          (int) errors.values().stream().mapToLong(AtomicLong::get).sum());
    }
  }

  @Override
  public Integer call() throws Exception {
    range("--clients", clients, 1, 256);
    range("--seconds", seconds, 1, 86_400);
    range("--page", page, 1, 1000);
    range("--largest", largest, 1, 1000);
    int colon = controller.lastIndexOf(':');
    if (colon <= 0) {
      throw new Problem("--controller " + controller + ": expected HOST:PORT, e.g. 127.0.0.1:7443");
    }
    String host = controller.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(controller.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new Problem("--controller " + controller + ": the port is not a number; expected HOST:PORT");
    }
    List<String> targets = largest(host, port);
    out.printf(Locale.ROOT, "abfleet bench read-flood: %d clients for %d s; GetExperiment of %s%n", clients, seconds, targets);
    Calls lists = new Calls();
    Calls gets = new Calls();
    AtomicLong bytes = new AtomicLong();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int client = c;
      threads.add(new Thread(() -> read(host, port, client, targets, end, lists, gets, bytes), "read-flood-" + c));
    }
    threads.forEach(Thread::start);
    long start = System.nanoTime();
    while (System.nanoTime() < end) {
      Thread.sleep(Math.min(30_000, Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
      out.printf(Locale.ROOT, "  %.0f s: %d ListExperiments, %d GetExperiment, %d failed%n",
          (System.nanoTime() - start) / 1e9, lists.latencies().millis().length, gets.latencies().millis().length,
          lists.latencies().errors() + gets.latencies().errors());
    }
    for (Thread t : threads) {
      t.join();
    }
    print("ListExperiments (page of " + page + ")", lists);
    print("GetExperiment (a boots page)", gets);
    out.printf(Locale.ROOT, "read %.1f MB of answers%n", bytes.get() / 1048576.0);
    return lists.errors.isEmpty() && gets.errors.isEmpty() ? 0 : 1;
  }

  private void print(String what, Calls calls) {
    Latencies l = calls.latencies();
    out.printf(Locale.ROOT, "%s: %d calls, p50 %.1f ms, p99 %.1f ms, max %.1f ms; failed %s%n", what,
        l.millis().length, l.millis().length == 0 ? Double.NaN : l.percentile(0.50),
        l.millis().length == 0 ? Double.NaN : l.percentile(0.99), l.millis().length == 0 ? Double.NaN : l.max(),
        calls.errors.isEmpty() ? "none" : new TreeMap<>(calls.errors));
  }

  /** The ids of the {@code largest} experiments with the most pairs done. */
  private List<String> largest(String host, int port) {
    ManagedChannel channel = channel(host, port);
    try {
      var stub = ExperimentServiceGrpc.newBlockingStub(channel);
      List<ExperimentSummary> all = new ArrayList<>();
      String token = "";
      do {
        ListExperimentsResponse r = stub.listExperiments(ListExperimentsRequest.newBuilder()
            .setPageSize(page).setPageToken(token).build());
        all.addAll(r.getExperimentsList());
        token = r.getNextPageToken();
      } while (!token.isEmpty());
      if (all.isEmpty()) {
        throw new Problem("the controller at " + controller + " has no experiments to read; fill its store first"
            + " (abfleet bench fill --home DIR)");
      }
      return all.stream().sorted(Comparator.comparingInt(ExperimentSummary::getPairsDone).reversed())
          .limit(largest).map(ExperimentSummary::getExperimentId).toList();
    } finally {
      channel.shutdownNow();
    }
  }

  private void read(String host, int port, int client, List<String> targets, long end, Calls lists, Calls gets,
      AtomicLong bytes) {
    ManagedChannel channel = channel(host, port);
    try {
      var stub = ExperimentServiceGrpc.newBlockingStub(channel);
      for (int round = client; System.nanoTime() < end; round++) {
        String token = "";
        do {
          long s = System.nanoTime();
          try {
            ListExperimentsResponse r = stub.withDeadlineAfter(60, TimeUnit.SECONDS).listExperiments(
                ListExperimentsRequest.newBuilder().setPageSize(page).setPageToken(token).build());
            lists.ok((System.nanoTime() - s) / 1e6);
            bytes.addAndGet(r.getSerializedSize());
            token = r.getNextPageToken();
          } catch (StatusRuntimeException e) {
            lists.failed(e);
            token = "";
          }
        } while (!token.isEmpty() && System.nanoTime() < end);
        String id = targets.get(round % targets.size());
        String bootsToken = "";
        do {
          long s = System.nanoTime();
          try {
            Experiment e = stub.withDeadlineAfter(60, TimeUnit.SECONDS).getExperiment(
                GetExperimentRequest.newBuilder().setExperimentId(id).setBootsPageToken(bootsToken).build());
            gets.ok((System.nanoTime() - s) / 1e6);
            bytes.addAndGet(e.getSerializedSize());
            bootsToken = e.getNextBootsPageToken();
          } catch (StatusRuntimeException e) {
            gets.failed(e);
            bootsToken = "";
          }
        } while (!bootsToken.isEmpty() && System.nanoTime() < end);
      }
    } finally {
      channel.shutdownNow();
    }
  }

  private static ManagedChannel channel(String host, int port) {
    // Answers are bounded below 4 MiB by the controller; the default inbound limit suffices.
    return NettyChannelBuilder.forAddress(host, port).usePlaintext().build();
  }

  private static void range(String option, int value, int min, int max) {
    if (value < min || value > max) {
      throw new Problem(option + " " + value + ": expected " + min + " to " + max);
    }
  }
}
