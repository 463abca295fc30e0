package dev.abfleet.bench.sim;

import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import dev.abfleet.worker.WorkerAgent;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.sim.SimBootRecord;
import dev.abfleet.worker.sim.SimDriver;
import dev.abfleet.worker.sim.SimModel;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Many SIMULATED worker agents in one JVM, each with its own gRPC stream to the controller (real
 * gRPC, usually over loopback), as that many separate hosts would connect. Host ids are
 * {@code <prefix>0001}, {@code <prefix>0002}, ...
 */
public final class SimFleet implements AutoCloseable {
  private final List<WorkerAgent> agents;

  private SimFleet(List<WorkerAgent> agents) {
    this.agents = agents;
  }

  /**
   * Starts {@code count} sim agents; returns at once (each link connects and reconnects by itself).
   *
   * @param recorder told about every simulated boot of every agent (may be called concurrently)
   */
  public static SimFleet start(String controller, int count, String idPrefix, SimModel model,
      Map<String, String> labels, Path home, Consumer<SimBootRecord> recorder) {
    List<WorkerAgent> agents = new ArrayList<>(count);
    try {
      for (int i = 1; i <= count; i++) {
        String hostId = hostId(idPrefix, i);
        agents.add(WorkerAgent.startSim(new WorkerSettings(controller, hostId, labels, home),
            new SimDriver(model, hostId, recorder)));
      }
    } catch (RuntimeException e) {
      agents.forEach(WorkerAgent::close);
      throw e;
    }
    return new SimFleet(agents);
  }

  /** {@code prefix} and {@code i} in at least four digits: sim-0001. */
  public static String hostId(String prefix, int i) {
    return prefix + String.format(Locale.ROOT, "%04d", i);
  }

  public List<String> hostIds() {
    return agents.stream().map(WorkerAgent::hostId).toList();
  }

  public int size() {
    return agents.size();
  }

  @Override
  public void close() {
    agents.forEach(WorkerAgent::close);
  }

  /**
   * Waits until the controller at {@code target} lists {@code n} connected sim hosts. The
   * controller serves plaintext, as the embedded controllers of benches and tests do.
   */
  public static void awaitHosts(String target, int n, int timeoutS) throws InterruptedException {
    ManagedChannel channel = io.grpc.Grpc.newChannelBuilder(target, io.grpc.InsecureChannelCredentials.create())
        .build();
    try {
      var stub = ExperimentServiceGrpc.newBlockingStub(channel);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
      long connected = 0;
      while (System.nanoTime() < deadline) {
        connected = stub.withDeadlineAfter(10, TimeUnit.SECONDS).listHosts(ListHostsRequest.getDefaultInstance())
            .getHostsList().stream()
            .filter(h -> !h.getState().equals("offline"))
            .filter(h -> h.getHypervisorsList().stream().anyMatch(c -> c.getName().equals("sim")))
            .count();
        if (connected >= n) {
          return;
        }
        Thread.sleep(100);
      }
      throw new IllegalStateException("only " + connected + " of " + n + " sim workers registered in " + timeoutS + " s");
    } finally {
      channel.shutdownNow();
    }
  }
}
