package dev.abfleet.cli;

import dev.abfleet.bench.sim.SimFleet;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fleet that tests of commands against a running controller talk to: an in-process
 * controller (in-memory journal) and SIMULATED workers connected to it over loopback gRPC.
 */
public final class SimController implements AutoCloseable {
  private final ControllerNode controller;
  private final List<SimFleet> fleets = new ArrayList<>();
  private int hosts;

  private SimController(ControllerNode controller) {
    this.controller = controller;
  }

  /** A controller with {@code n} sim workers named {@code prefix}0001...; returns once they are listed. */
  public static SimController start(int n, String prefix, SimModel model, Path home) throws InterruptedException {
    SimController fleet = new SimController(ControllerNode.start(ControllerSettings.inMemory()));
    try {
      return fleet.withWorkers(n, prefix, model, Map.of(), home);
    } catch (RuntimeException | InterruptedException e) {
      fleet.close();
      throw e;
    }
  }

  /** Adds {@code n} sim workers with {@code labels}; returns once the controller lists them all. */
  public SimController withWorkers(int n, String prefix, SimModel model, Map<String, String> labels, Path home)
      throws InterruptedException {
    fleets.add(SimFleet.start(address(), n, prefix, model, labels, home, r -> { }));
    hosts += n;
    SimFleet.awaitHosts(address(), hosts, 30);
    return this;
  }

  /** HOST:PORT of the controller's gRPC (plaintext). */
  public String address() {
    return "127.0.0.1:" + controller.grpcPort();
  }

  public int grpcPort() {
    return controller.grpcPort();
  }

  @Override
  public void close() {
    fleets.forEach(SimFleet::close);
    controller.close();
  }
}
