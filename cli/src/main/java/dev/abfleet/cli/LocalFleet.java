package dev.abfleet.cli;

import dev.abfleet.cli.config.FleetConfig;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.worker.WorkerAgent;
import dev.abfleet.worker.WorkerSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An embedded controller plus local worker agents that reach it over real gRPC on loopback,
 * as separate nodes of the fleet would. Worker ids are unique per session, so an experiment
 * left over in the store by an interrupted session never takes these workers.
 */
final class LocalFleet implements AutoCloseable {
  private final ControllerNode controller;
  private final List<WorkerAgent> workers;

  private LocalFleet(ControllerNode controller, List<WorkerAgent> workers) {
    this.controller = controller;
    this.workers = workers;
  }

  static LocalFleet start(FleetConfig config, Path home, int workerCount, PrintStream err) {
    ControllerNode controller = ControllerNode.start(ControllerConfigs.embedded(config, home));
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
      throw e;
    }
    return new LocalFleet(controller, workers);
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
  }
}
