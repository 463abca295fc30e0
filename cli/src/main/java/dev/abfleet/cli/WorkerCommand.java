package dev.abfleet.cli;

import dev.abfleet.worker.WorkerAgent;
import dev.abfleet.worker.WorkerSettings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet worker}: the host agent as its own process. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = "Run the worker agent: connect to a controller and boot the VMs it assigns, one at a time.")
final class WorkerCommand implements Callable<Integer> {
  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT", description = "Controller gRPC address.")
  String controller;

  @Option(names = "--host-id", paramLabel = "ID", description = "Id of this host in the fleet (default: hostname).")
  String hostId;

  @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Operator label, repeatable.")
  Map<String, String> labels = new LinkedHashMap<>();

  @Option(names = "--home", paramLabel = "DIR", description = "Cache and per-boot logs (default: $ABFLEET_HOME or ~/.cache/abfleet).")
  Path home;

  @Override
  public Integer call() throws InterruptedException {
    if (!controller.matches("[^:\\s]+:\\d{1,5}")) {
      throw new Problem("--controller '" + controller + "': expected HOST:PORT, e.g. 127.0.0.1:7070");
    }
    String id = hostId != null ? hostId : WorkerSettings.defaultHostId();
    if (!id.matches("[A-Za-z0-9_.-]{1,128}")) {
      throw new Problem("--host-id '" + id + "' may only use letters, digits, '_', '.', '-'");
    }
    WorkerSettings settings = new WorkerSettings(controller, id, labels, home != null ? home : WorkerSettings.defaultHome());
    CountDownLatch stop = new CountDownLatch(1);
    try (WorkerAgent agent = WorkerAgent.start(settings)) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        agent.close();
        stop.countDown();
      }));
      System.err.println("abfleet worker " + id + " -> " + controller);
      stop.await();
    }
    return Main.EXIT_OK;
  }
}
