package dev.abfleet.cli.sim;

import dev.abfleet.bench.sim.SimModels;
import dev.abfleet.bench.sim.SimFleet;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.config.Problem;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.sim.SimModel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet sim-fleet}: N simulated worker agents in one process. */
@Command(name = "sim-fleet", mixinStandardHelpOptions = true,
    description = {
      "SIMULATION: start N simulated worker agents (hypervisor 'sim') in one process, each with its",
      "own gRPC stream to the controller (50 streams share a connection; no worker holds a thread",
      "of its own: simulated boots are waited out on shared timers). Boots are simulated from a",
      "performance model: for scale tests and capacity planning only, never a measurement. Select",
      "them with hypervisor: sim."
    })
public final class SimFleetCommand implements Callable<Integer> {
  @Option(names = "--workers", required = true, paramLabel = "N", description = "Simulated hosts, 1 to 10000.")
  int workers;

  @Option(names = "--controller", required = true, paramLabel = "HOST:PORT[,...]", description = "Controller gRPC address; several (a controller cluster's nodes) separated by commas.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;

  @Option(names = "--cert", paramLabel = "FILE",
      description = "Worker certificate (PEM) for a controller that serves TLS; one names one host id, so"
          + " with several workers use {host} for each host id: certs/{host}.pem (`abfleet certs issue"
          + " --worker ID`). Needs --ca.")
  String cert;

  @Option(names = "--key", paramLabel = "FILE", description = "The private key (PEM, PKCS#8) of --cert; {host} as there.")
  String key;

  @Option(names = "--sim-model", paramLabel = "FILE", description = "Performance model, YAML (default: built-in).")
  Path simModel;

  @Option(names = "--time-scale", paramLabel = "X",
      description = "Real seconds per simulated second (1.0 = real time, 0.01 = 100x faster).")
  Double timeScale;

  @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Label of every simulated host, repeatable.")
  Map<String, String> labels = new LinkedHashMap<>();

  @Option(names = "--id-prefix", defaultValue = "sim-", paramLabel = "PREFIX",
      description = "Host ids are PREFIX0001, PREFIX0002, ... (default: ${DEFAULT-VALUE}).")
  String idPrefix;

  @Option(names = "--home", paramLabel = "DIR",
      description = "Placeholder artifacts and per-boot logs (default: $ABFLEET_HOME or ~/.cache/abfleet).")
  Path home;

  @Override
  public Integer call() throws InterruptedException {
    if (workers < 1 || workers > 10_000) {
      throw new Problem("--workers " + workers + ": expected 1 to 10000");
    }
    ControllerAddress.check(controller, auth);
    if (!idPrefix.matches("[A-Za-z0-9_.-]{0,64}")) {
      throw new Problem("--id-prefix '" + idPrefix + "' may only use letters, digits, '_', '.', '-'");
    }
    var hostIds = java.util.stream.IntStream.rangeClosed(1, workers)
        .mapToObj(i -> SimFleet.hostId(idPrefix, i)).toList();
    var security = SimCertificates.of(auth.security(), cert, key, hostIds);
    SimModel model = SimModels.load(simModel, timeScale);
    CountDownLatch stop = new CountDownLatch(1);
    try (SimFleet fleet = SimFleet.start(controller, workers, idPrefix, model, labels,
        home != null ? home : WorkerSettings.defaultHome(), security, r -> { })) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        fleet.close();
        stop.countDown();
      }));
      System.err.println("abfleet sim-fleet: SIMULATION: " + workers + " simulated workers "
          + SimFleet.hostId(idPrefix, 1) + ".." + SimFleet.hostId(idPrefix, workers) + " -> " + controller
          + "; " + SimModels.describe(model) + ". Scale tests and capacity planning only.");
      stop.await();
    }
    return ExitCodes.OK;
  }
}
