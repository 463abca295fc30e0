package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.worker.link.ChannelSecurity;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.worker.WorkerAgent;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.Host;
import dev.abfleet.proto.fleet.v1.ListHostsRequest;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * An embedded controller plus local worker agents that reach it over real gRPC on loopback,
 * as separate nodes of the fleet would. Worker ids are unique per session, so an experiment
 * left over in the store by an interrupted session never takes these workers.
 */
final class LocalFleet implements AutoCloseable {
  /** How long start() waits for the local workers to say hello (they probe their hypervisors first). */
  static final Duration REGISTER_WAIT = Duration.ofSeconds(60);

  private final StoreLock storeLock;
  private final ControllerNode controller;
  private final List<WorkerAgent> workers;

  private LocalFleet(StoreLock storeLock, ControllerNode controller, List<WorkerAgent> workers) {
    this.storeLock = storeLock;
    this.controller = controller;
    this.workers = workers;
  }

  /** @throws Problem when another controller holds the store under {@code home} */
  static LocalFleet start(FleetConfig config, Path home, int workerCount, PrintStream err) {
    Path storeDir = ControllerConfigs.h2Dir(config, home);
    StoreLock lock = storeDir == null ? null : StoreLock.acquire(storeDir,
        ControllerConfigs.h2DirOrigin(config, "the store in " + home),
        "point ab at it with --controller HOST:PORT, or set ABFLEET_HOME to another directory");
    ControllerNode controller;
    try {
      controller = ControllerNode.start(ControllerConfigs.embedded(config, home), ControllerConfigs.artifacts(config, home));
    } catch (RuntimeException e) {
      if (lock != null) {
        lock.close();
      }
      throw e;
    }
    List<WorkerAgent> workers = new ArrayList<>();
    try {
      String session = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
      for (int i = 1; i <= workerCount; i++) {
        String hostId = "local-" + session + "-w" + i;
        workers.add(WorkerAgent.start(new WorkerSettings(
            "127.0.0.1:" + controller.grpcPort(), hostId, Map.of("local", "true"), home)));
      }
    } catch (RuntimeException e) {
      workers.forEach(WorkerAgent::close);
      controller.close();
      if (lock != null) {
        lock.close();
      }
      throw e;
    }
    LocalFleet fleet = new LocalFleet(lock, controller, workers);
    fleet.awaitWorkers(REGISTER_WAIT);
    return fleet;
  }

  /**
   * Waits until the controller lists every local worker as connected, so the submission is
   * checked against hosts that exist. After {@code limit} it goes on: a submission with no host
   * known yet is queued, not rejected.
   */
  private void awaitWorkers(Duration limit) {
    ManagedChannel channel = ControllerAddress.channel(target(), ChannelSecurity.DEFAULT);
    try {
      var stub = ExperimentServiceGrpc.newBlockingStub(channel);
      long deadline = System.nanoTime() + limit.toNanos();
      while (System.nanoTime() < deadline) {
        var connected = stub.withDeadlineAfter(5, TimeUnit.SECONDS)
            .listHosts(ListHostsRequest.getDefaultInstance()).getHostsList().stream()
            .filter(Host::getConnected).map(Host::getHostId).toList();
        if (connected.containsAll(hostIds())) {
          return;
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (StatusRuntimeException e) {
      // The embedded controller answers on loopback; if it does not, the submission will say so.
    } finally {
      channel.shutdownNow();
    }
  }

  String target() {
    return "127.0.0.1:" + controller.grpcPort();
  }

  List<String> hostIds() {
    return workers.stream().map(WorkerAgent::hostId).toList();
  }

  @Override
  public void close() {
    workers.forEach(WorkerAgent::close);
    controller.close();
    if (storeLock != null) {
      storeLock.close();
    }
  }
}
